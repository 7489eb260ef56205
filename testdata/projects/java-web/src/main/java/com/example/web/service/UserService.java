package com.example.web.service;

import com.example.web.model.*;
import java.io.File;
import java.time.LocalDate;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.springframework.stereotype.Service;

/** User operations, with overloads and every kind of argument. */
@Service
public class UserService {

    public User findUser(Long id) { return null; }

    public User findUser(String name) { return null; }

    public User findUser(String name, int age) { return null; }

    public User register(User user, boolean notify) { return user; }

    public int bulk(List<User> users, Map<Role, List<String>> permissions) { return users.size(); }

    public void tag(String label, Role... roles) {}

    public long sum(int[][] grid) { return 0L; }

    public <T extends Number> T echo(T value) { return value; }

    public boolean anyOf(Set<Role> roles) { return !roles.isEmpty(); }

    public void audited(AuditService audit, Long id) {}

    public Integer apply(Function<String, Integer> fn) { return fn.apply("x"); }

    public String read(File file, Class<?> type) { return ""; }

    public String when(LocalDate day, Date at) { return ""; }

    public String maybe(Optional<String> name) { return name.orElse(""); }

    public List<User> search(PageRequest<UserQuery> request) { return List.of(); }

    public Address.Country country(Address address) { return address.country(); }

    public int count() { return 0; }
}
