//! The bindings wit-bindgen generates from `wit/` (our export and the wasi imports).

wit_bindgen::generate!({
    path: "../../wit",
    world: "plugin",
    generate_all,
});
