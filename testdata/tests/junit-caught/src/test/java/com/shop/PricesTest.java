package com.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PricesTest {
    @Test
    void expectsTheError() {
        assertThrows(IllegalArgumentException.class, () -> Prices.price("x"));
        int got = Prices.totalOf("2, x, 3, 1");
        assertEquals(6, got);
    }
}
