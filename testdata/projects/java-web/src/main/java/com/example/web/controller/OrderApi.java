package com.example.web.controller;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;

/** Declares the order endpoints; OrderController implements them. */
@RequestMapping("/api/orders")
public interface OrderApi {
    /** Reads one order. */
    @GetMapping("/{id}")
    String get(@PathVariable("id") Long id);
}
