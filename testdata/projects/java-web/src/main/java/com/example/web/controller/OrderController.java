package com.example.web.controller;

import org.springframework.web.bind.annotation.RestController;

@RestController
public class OrderController implements OrderApi {
    @Override
    public String get(Long id) { return "order-" + id; }
}
