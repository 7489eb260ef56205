package com.example.web.model;

public enum Role {
    ADMIN("administrator"),
    USER("regular user") {
        @Override
        public String label() { return "user"; }
    },
    GUEST("guest");

    private final String description;

    Role(String description) { this.description = description; }

    public String label() { return description; }
}
