//! `ggdesk --db DB serve [--listen ADDR:PORT]`: the public pages, read-only, until Ctrl+C or
//! SIGTERM.

use super::CliError;
use super::store_cmds::db_address;
use crate::serve::{ServeConfig, Server, parse_listen};
use std::io::Write;

pub fn run(db: Option<String>, listen: &str) -> Result<(), CliError> {
    let addr = parse_listen(listen).map_err(CliError::Input)?;
    let address = db_address(db)?;
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .map_err(|e| CliError::Other(format!("cannot catch Ctrl+C and SIGTERM: {e}")))?;
    let server = Server::start(&ServeConfig::new(address.clone(), addr))
        .map_err(|e| CliError::Other(e.to_string()))?;
    let mut out = std::io::stdout();
    let _ = writeln!(out, "listening on http://{}/", server.addr());
    let _ = writeln!(
        out,
        "serving {} read-only; phones open {} (the page to print: {}wall); Ctrl+C stops",
        address,
        server.url(),
        server.url()
    );
    let _ = out.flush();
    // Wait for SIGINT or SIGTERM (or the handler's end), then stop at once.
    let _ = stop_rx.recv();
    server.stop();
    Ok(())
}
