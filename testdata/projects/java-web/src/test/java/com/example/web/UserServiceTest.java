package com.example.web;

import com.example.web.service.UserService;

class UserServiceTest {
    void findsNothing() {
        new UserService().findUser(1L);
    }
}
