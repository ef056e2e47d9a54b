//! Gives the shared library its SONAME, `libjungletb_c.so.<major>` (on
//! Linux and other ELF systems), so that programs linked against it find
//! the installed, versioned file (`crates/capi/install.sh` writes the
//! symlinks `libjungletb_c.so` -> `libjungletb_c.so.<major>` ->
//! `libjungletb_c.so.<version>`). macOS names its libraries `.dylib` and
//! records an install name instead; that is set there.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("set by cargo");
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("set by cargo");
    // Before 1.0 a minor version may break the ABI: it is part of the name.
    let abi = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    match os.as_str() {
        "macos" | "ios" => println!(
            "cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libjungletb_c.{abi}.dylib"
        ),
        "windows" => {}
        _ => println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libjungletb_c.so.{abi}"),
    }
    println!("cargo:rerun-if-changed=build.rs");
}
