package com.example.web.jaxrs;

import java.util.List;
import javax.ws.rs.*;

@Path("items")
@Produces("application/json")
public class ItemResource {
    @GET
    public List<String> list() { return List.of(); }

    /** Reads one item. */
    @GET
    @Path("{id}")
    public String get(@PathParam("id") long id) { return ""; }

    @POST
    @Consumes("application/json")
    public String create(String body) { return body; }

    @DELETE
    @Path("/{id}")
    public void delete(@PathParam("id") long id) {}
}
