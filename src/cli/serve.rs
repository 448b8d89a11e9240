//! `poolshark serve`: the board in the browser (see `crate::serve`).

use super::args::{EgdbArg, EngineArgs};
use super::{input, runtime, CliError};
use crate::serve::boards::table_bytes;
use crate::serve::limits::ServeLimits;
use crate::serve::server::{self, Config};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// The options of `poolshark serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free one (the printed address names it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default is this machine only; 0.0.0.0 opens the board to
    /// the network, to anyone who can reach it. The page answers only to this address,
    /// `localhost` and the loopback addresses (any IP address for 0.0.0.0), never to
    /// another host name, so a site cannot reach it by DNS rebinding.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Boards open at once; each has its own engine with a table of --hash MiB, so the
    /// tables take at most this many times --hash (and at most --memory).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    max_connections: u16,
    /// Memory in MiB that all boards' tables may take together; a board whose table does
    /// not fit is refused with a message. Default: half this machine's memory (or of its
    /// cgroup's limit). One board's --hash must fit.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=(1 << 40)))]
    memory: Option<u64>,
    /// Plain connections open at once; the next is closed (default: below the open-files
    /// limit).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_sockets: Option<u64>,
    /// Seconds a client has to send a request's head.
    #[arg(long, hide = true, value_parser = seconds)]
    header_timeout: Option<Duration>,
    /// Seconds of silence before a WebSocket is pinged.
    #[arg(long, hide = true, value_parser = seconds)]
    ping_interval: Option<Duration>,
    /// Seconds a pinged WebSocket has to answer.
    #[arg(long, hide = true, value_parser = seconds)]
    ping_timeout: Option<Duration>,
    /// Play without the opening book (the engine then searches every move). With it, the
    /// engine plays book moves for the first plies as the Hub does (`POOLSHARK_BOOK` names
    /// another book file).
    #[arg(long)]
    no_book: bool,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    egdb: EgdbArg,
}

impl ServeArgs {
    /// Prints `poolshark board: http://HOST:PORT/`, then serves until the process is ended.
    pub fn run(self) -> Result<(), CliError> {
        let weights = self.engine.weights.load()?;
        let search = &self.engine.search;
        let limits = self.limits();
        let table = table_bytes(search.hash as usize);
        if table > limits.memory_bytes {
            return Err(input(format!(
                "--hash {}: a board's table ({} MiB) does not fit in the memory budget of \
                 {} MiB (--memory)",
                search.hash,
                table >> 20,
                limits.memory_bytes >> 20
            )));
        }
        // Check the table size once here, so a bad --hash fails now, not per connection.
        poolshark_engine::search::tt::TranspositionTable::try_with_log2(
            poolshark_engine::search::tt::TranspositionTable::log2_for_mb(search.hash as usize),
        )
        .map_err(|e| search.table_error(e))?;
        let config = Config {
            hash_mb: search.hash as usize,
            threads: search.threads as usize,
            weights,
            egdb: self.egdb.open_for_play()?,
            book: if self.no_book {
                None
            } else {
                poolshark_host::book::load_for_play().map(std::sync::Arc::new)
            },
            limits,
            params: search.params(),
        };
        let addr = SocketAddr::new(self.host, self.port);
        let listener = std::net::TcpListener::bind(addr)
            .map_err(|e| input(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| runtime(format!("cannot read the address: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| runtime(format!("cannot listen on {addr}: {e}")))?;
        // A small runtime: the connections only pass messages; searches run on their own
        // threads.
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| runtime(format!("cannot start the server: {e}")))?;
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            outln!("poolshark board: http://{local}/");
            server::serve(listener, config).await
        })
        .map_err(|e| runtime(format!("server stopped: {e}")))
    }

    fn limits(&self) -> ServeLimits {
        let mut limits = ServeLimits::new(
            self.max_connections as usize,
            poolshark_host::machine::here(),
        );
        if let Some(mb) = self.memory {
            limits.memory_bytes = mb << 20;
        }
        if let Some(n) = self.max_sockets {
            limits.max_sockets = n as usize;
        }
        limits.header_timeout = self.header_timeout.unwrap_or(limits.header_timeout);
        limits.ping_interval = self.ping_interval.unwrap_or(limits.ping_interval);
        limits.ping_timeout = self.ping_timeout.unwrap_or(limits.ping_timeout);
        limits
    }
}

/// A positive number of seconds, at most a day.
fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err(format!("{text}: seconds must be above 0 and at most 86400"));
    }
    Ok(Duration::from_secs_f64(secs))
}
