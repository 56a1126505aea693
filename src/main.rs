//! The `ggdesk` binary: everything happens in the library; this maps the result to an exit
//! code.

fn main() {
    std::process::exit(ggdesk::cli::main());
}
