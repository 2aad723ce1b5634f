//! Host bindings of `wit/world.wit`; the WASI imports map onto wasmtime-wasi(-http)'s own.
wasmtime::component::bindgen!({
    path: "../../wit",
    world: "plugin",
    exports: { default: async },
    with: {
        "wasi:cli": wasmtime_wasi::p2::bindings::cli,
        "wasi:clocks": wasmtime_wasi::p2::bindings::clocks,
        "wasi:io": wasmtime_wasi::p2::bindings::io,
        "wasi:http": wasmtime_wasi_http::p2::bindings::http,
    },
});
