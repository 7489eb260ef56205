package com.example.web.model;

import java.util.List;

/** A page of a query, generic in its filter. */
public class PageRequest<T> {
    private T filter;
    private List<T> history;
    private int page;
    private long size;
}
