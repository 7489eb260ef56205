package com.shop;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart of item prices. */
public class Cart {
    private final List<Integer> prices = new ArrayList<>();

    public void add(int price) {
        prices.add(price);
    }

    public int total() {
        int sum = 0;
        for (int p : prices) {
            sum += p;
        }
        return sum;
    }

    public int discount(int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent " + percent + " is out of range");
        }
        return total() * (100 - percent) / 100;
    }
}
