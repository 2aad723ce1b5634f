//! The bindings wit-bindgen generates from `wit/` (the `http-transport` world).

wit_bindgen::generate!({
    path: "../../wit",
    world: "http-transport",
    generate_all,
});
