package com.example.shop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Reports that open their own short-lived connection per call. */
public final class ReportService {
    private ReportService() {}

    /** Counts the orders of a status over a new connection. */
    public static int countByStatus(Status status) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1", "sa", "");
                PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM orders WHERE status = ?")) {
            ps.setString(1, status.name());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
