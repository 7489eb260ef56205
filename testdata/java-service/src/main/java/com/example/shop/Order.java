package com.example.shop;

import java.util.ArrayList;
import java.util.List;

/** An order: the POJO argument of OrderService.placeOrder. */
public class Order extends BaseEntity {
    private long id;
    private String customer;
    private double amount;
    private Status status;
    private List<String> items = new ArrayList<>();

    public Order() {}

    public Order(long id, String customer, double amount, Status status) {
        this.id = id;
        this.customer = customer;
        this.amount = amount;
        this.status = status;
    }

    public long getId() { return id; }
    public void setId(long id) { this.id = id; }
    public String getCustomer() { return customer; }
    public void setCustomer(String customer) { this.customer = customer; }
    public double getAmount() { return amount; }
    public void setAmount(double amount) { this.amount = amount; }
    public Status getStatus() { return status; }
    public void setStatus(Status status) { this.status = status; }
    public List<String> getItems() { return items; }
    public void setItems(List<String> items) { this.items = items; }

    @Override
    public String toString() {
        return "Order(id=" + id + ", customer=" + customer + ", amount=" + amount + ", status=" + status
                + ", items=" + items + ")";
    }
}
