//! `ggdesk host DIR`: the event server, until Ctrl+C or SIGTERM (see [`crate::host`]).

use super::{CliError, say};
use crate::host::{Host, HostError, HostOptions};

pub fn run(options: HostOptions) -> Result<(), CliError> {
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .map_err(|e| CliError::Other(format!("cannot catch Ctrl+C and SIGTERM: {e}")))?;
    let mut host = Host::start(&options).map_err(cli_error)?;
    let _ = host.announce(&mut std::io::stdout());
    // Wait for SIGINT or SIGTERM, then stop everything; meanwhile a standby starts its
    // event server once it is promoted.
    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
        stop_rx.recv_timeout(std::time::Duration::from_secs(1))
    {
        match host.poll() {
            // Written if anyone reads: an event server does not stop because the reader of
            // its output went away.
            Ok(true) => {
                let _ = say("promoted: the stations' API and the public pages run here");
            }
            Ok(false) => {}
            Err(e) => eprintln!("ggdesk: {e}"),
        }
    }
    host.stop().map_err(cli_error)?;
    say("stopped")
}

fn cli_error(e: HostError) -> CliError {
    match e {
        HostError::Input(m) => CliError::Input(m),
        HostError::Other(m) => CliError::Other(m),
    }
}
