package com.example.web.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.*;

/**
 * A user; refers to itself through its manager.
 */
public class User extends BaseEntity<Long> {
    public static final int MAX_NAME = 64;

    private String name;
    private int age;
    private boolean active;
    private Role role;
    private List<Address> addresses = new ArrayList<>();
    private Map<String, Integer> scores = new HashMap<String, Integer>();
    private Set<Role> extraRoles;
    private User manager;
    private BigDecimal balance;
    @JsonProperty("mail")
    private String email;
    @JsonIgnore
    private String password;
    private String[] tags;

    public String getName() { return name; }

    public void setName(String name) { this.name = name; }
}
