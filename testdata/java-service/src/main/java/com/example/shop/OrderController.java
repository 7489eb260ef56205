package com.example.shop;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Controller-style mappings over OrderService (for URL search). */
@RestController
@RequestMapping("/api/orders")
public class OrderController {
    private final OrderService service;

    public OrderController(OrderService service) {
        this.service = service;
    }

    /** Reads one order. */
    @GetMapping("/{id}")
    public Order get(@PathVariable("id") long id) throws Exception {
        return service.findOrder(id);
    }

    /** Places an order. */
    @PostMapping
    public Order place(@RequestBody Order order) throws Exception {
        return service.placeOrder(order);
    }
}
