package com.example.web.controller;

import com.example.web.WebPaths;
import com.example.web.model.Role;
import com.example.web.model.User;
import com.example.web.model.UserQuery;
import java.util.List;
import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping(WebPaths.USERS)
public class UserController {

    /**
     * Reads one user.
     *
     * @param id the user id
     */
    @GetMapping("/{id}")
    public User getUser(@PathVariable("id") Long id) { return null; }

    @GetMapping
    public List<User> list(UserQuery query) { return List.of(); }

    @PostMapping(consumes = "application/json")
    public User create(@RequestBody User user) { return user; }

    @PutMapping({"/{id}", "/{id}/replace"})
    public User update(@PathVariable Long id, @RequestBody User user) { return user; }

    @DeleteMapping(path = "/{id}")
    public void delete(@PathVariable Long id) {}

    @RequestMapping(value = "/search", method = {RequestMethod.GET, RequestMethod.POST})
    public List<User> search(@RequestParam(required = false) String keyword, @RequestParam Role role) { return List.of(); }

    @RequestMapping("/ping")
    public String ping() { return "pong"; }

    @PatchMapping(value = "/{id}/role")
    public User changeRole(@PathVariable Long id, @RequestParam Role role) { return null; }

    // Not mapped: plain overloads.
    public User find(Long id) { return null; }

    public User find(String name) { return null; }
}
