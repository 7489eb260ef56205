package com.example.web.model;

/** A postal address. */
public record Address(String city, String zip, Country country) {
    public enum Country { FR, DE, JP }

    public Address {
        if (city == null) throw new IllegalArgumentException("city");
    }
}
