package com.example;

public class Main {
    public static void main(String[] args) {
        System.out.println("args=" + String.join(",", args));
    }
}
