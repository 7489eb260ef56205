package com.example.web;

/** Shared URL prefixes. */
public final class WebPaths {
    public static final String API = "/api";
    public static final String USERS = API + "/users";

    private WebPaths() {}
}
