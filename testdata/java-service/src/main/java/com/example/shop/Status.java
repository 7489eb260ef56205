package com.example.shop;

/** Order status. */
public enum Status {
    NEW, PAID, SHIPPED, CANCELLED
}
