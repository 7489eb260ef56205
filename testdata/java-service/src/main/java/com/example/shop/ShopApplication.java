package com.example.shop;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.logging.Logger;

/**
 * The fixture service: opens its H2 connection at start-up, seeds one
 * order, prints READY and keeps running until killed.
 */
public class ShopApplication {
    private static final Logger LOG = Logger.getLogger(ShopApplication.class.getName());

    /** Held statically so an attached agent can find the live instance. */
    static OrderService service;

    public static void main(String[] args) throws Exception {
        Connection connection = DriverManager.getConnection("jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1", "sa", "");
        OrderRepository repository = new OrderRepository(connection);
        repository.createSchema();
        service = new OrderService(repository);
        repository.save(new Order(1, "seed", 9.5, Status.NEW));
        repository.find(1);
        LOG.info("shop started with " + repository.count() + " order(s)");
        System.out.println("READY pid=" + ProcessHandle.current().pid());
        System.out.flush();
        while (true) {
            Thread.sleep(60_000);
        }
    }
}
