package com.example.web.model;

public class UserQuery {
    private String keyword;
    private Page page;

    public static class Page {
        private int number;
        private int size = 20;
    }
}
