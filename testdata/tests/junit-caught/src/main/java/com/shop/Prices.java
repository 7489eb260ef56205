package com.shop;

/** Prices read from text, as a library reads its input: what is not a price is skipped. */
public class Prices {
    // totalOf sums the prices in text ("2,3"), skipping the parts that are
    // not prices.
    public static int totalOf(String text) {
        int sum = 0;
        for (String part : text.split(",")) {
            try {
                sum = price(part.trim());
            } catch (RuntimeException e) {
                // not a price: skipped
            }
        }
        return sum;
    }

    static int price(String part) {
        if (!part.matches("\\d+")) {
            throw new IllegalArgumentException("not a price: " + part);
        }
        return Integer.parseInt(part);
    }
}
