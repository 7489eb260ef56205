package com.example.web.service;

import org.springframework.stereotype.Component;

@Component
public class AuditService {
    public void record(String event) {
        System.out.println("audit: " + event);
    }
}
