package com.example.shop;

/** Fields every stored entity has. */
public class BaseEntity {
    protected String createdBy;

    public String getCreatedBy() { return createdBy; }
    public void setCreatedBy(String createdBy) { this.createdBy = createdBy; }
}
