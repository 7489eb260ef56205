package com.example.shop;

import java.sql.SQLException;
import java.util.logging.Logger;

/** The service class the tests invoke. */
public class OrderService {
    private static final Logger LOG = Logger.getLogger(OrderService.class.getName());

    private final OrderRepository repository;
    private int calls;

    public OrderService(OrderRepository repository) {
        this.repository = repository;
    }

    /** Greets someone. */
    public String greet(String name) {
        calls++;
        System.out.println("greet called with " + name);
        return "Hello, " + name + "!";
    }

    /** Adds two numbers. */
    public int add(int a, int b) {
        return a + b;
    }

    /** Concatenates two strings (an overload of add). */
    public String add(String a, String b) {
        return a + b;
    }

    /** Stores an order and returns it as read back from the database. */
    public Order placeOrder(Order order) throws SQLException {
        LOG.info("placing order " + order.getId() + " for " + order.getCustomer());
        repository.save(order);
        return repository.find(order.getId());
    }

    /** Reads an order by id. */
    public Order findOrder(long id) throws SQLException {
        return repository.find(id);
    }

    /** Describes a status. */
    public String describe(Status status) {
        LOG.warning("describing " + status);
        return status.name().toLowerCase() + "/" + status.ordinal();
    }

    /** Always fails. */
    public void fail(String reason) {
        throw new IllegalStateException("refused: " + reason);
    }

    public int getCalls() {
        return calls;
    }
}
