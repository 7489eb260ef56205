package com.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CartTest {
    static Cart of(int... prices) {
        Cart cart = new Cart();
        for (int p : prices) {
            cart.add(p);
        }
        return cart;
    }

    @Test
    void totalWrong() {
        int got = of(2, 3).total();
        assertEquals(6, got);
    }

    @Test
    void discountRaises() {
        of(100).discount(150);
    }

    @ParameterizedTest
    @CsvSource({"1, 1, 2", "2, 3, 6"})
    void pairs(int a, int b, int want) {
        int got = of(a, b).total();
        assertEquals(want, got);
    }

    @Test
    void passes() {
        System.out.println("checking the discount");
        assertEquals(90, of(100).discount(10));
    }
}
