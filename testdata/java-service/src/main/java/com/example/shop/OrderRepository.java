package com.example.shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** JDBC access to the orders table over one connection opened at start-up. */
public class OrderRepository {
    private final Connection connection;

    public OrderRepository(Connection connection) {
        this.connection = connection;
    }

    void createSchema() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer VARCHAR(100), amount DOUBLE, status VARCHAR(20))");
        }
    }

    public void save(Order order) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("MERGE INTO orders (id, customer, amount, status) KEY (id) VALUES (?, ?, ?, ?)")) {
            ps.setLong(1, order.getId());
            ps.setString(2, order.getCustomer());
            ps.setDouble(3, order.getAmount());
            ps.setString(4, order.getStatus() == null ? null : order.getStatus().name());
            ps.executeUpdate();
        }
    }

    public Order find(long id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT id, customer, amount, status FROM orders WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                return new Order(rs.getLong(1), rs.getString(2), rs.getDouble(3), Status.valueOf(rs.getString(4)));
            }
        }
    }

    public int count() throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
