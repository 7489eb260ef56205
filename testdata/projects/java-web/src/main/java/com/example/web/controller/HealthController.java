package com.example.web.controller;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

@Controller
public class HealthController {
    @io.swagger.v3.oas.annotations.Operation(summary = "Liveness probe")
    @GetMapping("health")
    @ResponseBody
    public String health() { return "ok"; }
}
