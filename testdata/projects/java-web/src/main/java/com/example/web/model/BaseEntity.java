package com.example.web.model;

import java.io.Serializable;
import java.time.LocalDateTime;

/** Base of every persisted entity. */
public abstract class BaseEntity<ID extends Serializable> implements Serializable {
    private static final long serialVersionUID = 1L;

    protected ID id;
    protected LocalDateTime createdAt;

    public ID getId() { return id; }
}
