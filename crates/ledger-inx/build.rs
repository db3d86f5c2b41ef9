//! Compiles proto/inx.proto with protox (a protobuf compiler in pure Rust: no `protoc` on
//! the build machine) and generates the tonic server, and the client the tests use.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/inx.proto");
    let descriptors = protox::compile(["proto/inx.proto"], ["proto"])?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(descriptors)?;
    Ok(())
}
