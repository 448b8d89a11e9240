//! The HTTP side: axum routes for the page (embedded in the binary) and the WebSocket at
//! `/ws`, whose connections `connection` runs, one task each.
//!
//! Limits (`limits`), so that no tab or client can hurt the process or another tab:
//! - requests: one that names its host twice (two `Host` headers, or two `Origin`
//!   headers), or whose target is not a path (`GET http://other/ HTTP/1.1`), is malformed
//!   and gets 400: which of two names counts is not for the server to guess.
//! - sockets: at most `max_sockets` plain connections at once, below the open-files limit;
//!   the next is closed at once and the server logs it. A request's head must arrive
//!   within `header_timeout` of the connection opening or of its last response, so idle
//!   and slow clients do not hold their sockets.
//! - boards: at most `max_boards` WebSockets at once, and their tables of `--hash` MiB
//!   each within the `--memory` budget (`boards`); the next one gets an `error` and is
//!   closed, and the server logs it.
//! - messages: text only (a binary frame gets an `error`); 64 KiB, or `MAX_PDN_MESSAGE`
//!   (3.375 MiB) for `load_pdn` (an `error` beyond, the connection goes on); a frame over
//!   `MAX_FRAME` (twice that) ends the connection, as the WebSocket layer cannot read past it.
//! - addresses: a request target over `MAX_ADDRESS` bytes gets 414 with a page that says
//!   the link is too long (a link the page made is far shorter: `?fen=` holds one FEN, and
//!   `#pdn=` never reaches the server). Over hyper's own limit (64 KiB) hyper answers 414
//!   with no page, so the first request of each connection is looked at before hyper reads
//!   it (`first_line`): a link opened in a browser gets the page too.
//! - silence, order and searches: see `connection`.

use crate::serve::assets::ASSETS;
use crate::serve::boards::{table_bytes, Boards};
use crate::serve::connection;
use crate::serve::limits::ServeLimits;
use crate::serve::origin::AllowedHosts;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use poolshark_engine::eval::Weights;
use poolshark_engine::search::params::SearchParams;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The largest frame or message the WebSocket layer reads at all; `protocol::parse` checks
/// the smaller per-type limits so that a too-large request gets an `error` reply.
pub const MAX_FRAME: usize = 2 * crate::serve::protocol::MAX_PDN_MESSAGE;

/// The longest request target (path and query) answered: longer ones get 414.
pub const MAX_ADDRESS: usize = 8 << 10;

/// What every connection shares: how to build its engine, and the limits.
pub struct Config {
    pub hash_mb: usize,
    pub threads: usize,
    pub weights: Weights,
    /// Endgame tables every connection's engine probes (read once, shared).
    pub egdb: Option<Arc<poolshark_engine::egdb::Egdb>>,
    /// The opening book for the engine's moves (None: it always searches).
    pub book: Option<Arc<poolshark_engine::book::Book>>,
    pub limits: ServeLimits,
    /// The search parameters of every board's searches (`--search-params`).
    pub params: SearchParams,
}

/// What the routes share: the configuration, the boards open, the names answered to.
pub(super) struct App {
    pub(super) config: Config,
    pub(super) boards: Arc<Boards>,
    hosts: AllowedHosts,
}

/// The router: the page's files (`assets`) and the WebSocket, for a server listening on `listen`
/// (the names it answers to, see `origin`).
pub fn router(config: Config, listen: SocketAddr) -> Router {
    let boards = Boards::new(
        config.limits.max_boards,
        config.limits.memory_bytes,
        table_bytes(config.hash_mb),
    );
    let app = Arc::new(App {
        config,
        boards,
        hosts: AllowedHosts::new(listen),
    });
    let mut router = Router::new();
    for asset in ASSETS {
        router = router.route(asset.path, get(move || file(asset.mime, asset.body)));
    }
    router
        .route("/ws", get(upgrade))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), check_host))
        .with_state(app)
}

/// Every request must name this server in its `Host` (a DNS-rebound name is refused), once,
/// and ask for a path of it (`malformed`).
async fn check_host(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: middleware::Next,
) -> Response {
    if let Some(why) = malformed(&request) {
        log::warn!("refused a malformed request: {why}");
        return (StatusCode::BAD_REQUEST, format!("bad request: {why}\n")).into_response();
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| app.hosts.host(h)) {
        log::warn!("refused a request for host {host:?}: not a name this server listens as");
        return (
            StatusCode::FORBIDDEN,
            "this server answers only to its own address (Host refused)\n",
        )
            .into_response();
    }
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > MAX_ADDRESS {
        return too_long(target);
    }
    next.run(request).await
}

/// The 414 for an address of `bytes` bytes: a page that says what happened, as a person
/// opening a link sees it.
fn too_long(bytes: usize) -> Response {
    log::warn!("refused an address of {bytes} bytes (the limit is {MAX_ADDRESS})");
    (
        StatusCode::URI_TOO_LONG,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONNECTION, "close"),
        ],
        too_long_page(&format!("{bytes} bytes")),
    )
        .into_response()
}

/// The 414's page, for an address of `size` ("9000 bytes", "over 8224 bytes").
fn too_long_page(size: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>poolshark: the link is too long</title></head>\n<body>\
         <h1>The link is too long</h1>\n<p>This address is {size}; the board opens \
         addresses of at most {MAX_ADDRESS}. A link to a position (<code>?fen=</code>) is \
         far shorter, so this one was not made by the board or was changed on the way.</p>\n\
         <p><a href=\"/\">Open the board</a>: the game you had there is still kept.</p>\
         </body></html>\n"
    )
}

/// How long `first_line` waits between looks at a request line still coming.
const PEEK_AGAIN: Duration = Duration::from_millis(5);

/// What the first request line of a connection is, as far as `MAX_ADDRESS` goes.
enum FirstLine {
    /// Within the limit (or the client closed): hyper reads it as it came.
    Fine,
    /// Over the limit: at least this many bytes with no end.
    Overlong(usize),
    /// Nothing, or no end of the line, within the deadline: closed, as hyper would.
    Silent,
}

/// Look at the first request line on `stream` without reading it (`peek`), so that hyper
/// then reads the request as it came.
async fn first_line(stream: &tokio::net::TcpStream, wait: Duration) -> FirstLine {
    // "GET " and " HTTP/1.1\r\n" around the target, with room for a longer method.
    let limit = MAX_ADDRESS + 32;
    let mut buf = vec![0u8; limit + 1];
    let deadline = tokio::time::Instant::now() + wait;
    let mut seen = 0;
    loop {
        let n = match tokio::time::timeout_at(deadline, stream.peek(&mut buf)).await {
            Ok(Ok(n)) => n,
            Ok(Err(_)) => return FirstLine::Fine,
            Err(_) => return FirstLine::Silent,
        };
        if n == 0 || buf[..n].contains(&b'\n') {
            return FirstLine::Fine;
        }
        if n > limit {
            return FirstLine::Overlong(n);
        }
        if n == seen {
            // No more yet: `peek` answers at once while anything is buffered.
            if tokio::time::Instant::now() + PEEK_AGAIN > deadline {
                return FirstLine::Silent;
            }
            tokio::time::sleep(PEEK_AGAIN).await;
        }
        seen = n;
    }
}

/// Answer a connection whose first request line is over the limit with the 414 page, and
/// close it (what it sent is not read: the request cannot be served).
async fn refuse_overlong(mut stream: tokio::net::TcpStream, bytes: usize) {
    use tokio::io::AsyncWriteExt;
    log::warn!("refused an address of over {bytes} bytes (the limit is {MAX_ADDRESS})");
    let body = too_long_page(&format!("over {bytes} bytes"));
    let head = format!(
        "HTTP/1.1 414 URI Too Long\r\ncontent-type: text/html; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), write).await;
    // Read (and drop) what is still coming for a moment, so that closing with unread data
    // does not reset the connection before the client has read the page.
    let mut sink = [0u8; 4096];
    let drain = async {
        use tokio::io::AsyncReadExt;
        while stream.read(&mut sink).await.is_ok_and(|n| n > 0) {}
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}

/// Why a request is malformed, if it is: a target that is not a path (an absolute
/// `http://other/`, whose authority could disagree with `Host`, or `*`), or a `Host` or
/// `Origin` header given twice (a proxy may read one and the server the other).
fn malformed(request: &axum::extract::Request) -> Option<&'static str> {
    let uri = request.uri();
    if uri.scheme().is_some() || uri.authority().is_some() || !uri.path().starts_with('/') {
        return Some("the request target must be a path (origin-form)");
    }
    let headers = request.headers();
    if headers.get_all(header::HOST).iter().count() > 1 {
        return Some("more than one Host header");
    }
    if headers.get_all(header::ORIGIN).iter().count() > 1 {
        return Some("more than one Origin header");
    }
    None
}

/// Serve on `listener` until the process ends: each connection on its own task, at most
/// `max_sockets` at once, HTTP/1 with a deadline for each request's head.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    let listen = listener.local_addr()?;
    let limits = config.limits.clone();
    let app = router(config, listen);
    let sockets = Arc::new(AtomicUsize::new(0));
    // Log once each time the cap is reached, not once per refused connection.
    let mut at_cap = false;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors (EMFILE) or a connection reset before it was taken:
                // wait a little, so that a full table is not a busy loop.
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(ACCEPT_RETRY).await;
                continue;
            }
        };
        let Some(socket) = SocketSlot::take(&sockets, limits.max_sockets) else {
            if !at_cap {
                log::warn!(
                    "connection limit reached: {} sockets open (--max-sockets); new \
                     connections are closed until some end",
                    limits.max_sockets
                );
                at_cap = true;
            }
            drop(stream);
            continue;
        };
        if at_cap {
            log::warn!("connections accepted again");
            at_cap = false;
        }
        let service = TowerToHyperService::new(app.clone());
        let header_timeout = limits.header_timeout;
        tokio::spawn(async move {
            let _socket = socket;
            let _ = stream.set_nodelay(true);
            match first_line(&stream, header_timeout).await {
                FirstLine::Fine => {}
                FirstLine::Overlong(bytes) => return refuse_overlong(stream, bytes).await,
                FirstLine::Silent => {
                    log::debug!("closed a connection that sent no request line in time");
                    return;
                }
            }
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            if let Err(e) = served {
                log::debug!("connection ended: {e}");
            }
        });
    }
}

/// How long to wait after a failed `accept`.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// An open socket's place under `max_sockets`; dropping it frees the place.
struct SocketSlot(Arc<AtomicUsize>);

impl SocketSlot {
    fn take(open: &Arc<AtomicUsize>, max: usize) -> Option<SocketSlot> {
        open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        })
        .ok()
        .map(|_| SocketSlot(Arc::clone(open)))
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Accept a WebSocket from this server's own page. A page from another site (its
/// `Origin` names another host) could otherwise drive the engine from the user's browser.
/// The `Origin` is checked against the names the server listens as, not against the
/// request's own `Host`, which a rebound name sets too.
async fn upgrade(
    headers: HeaderMap,
    State(app): State<Arc<App>>,
    ws: WebSocketUpgrade,
) -> Response {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().ok();
        if !origin.is_some_and(|o| app.hosts.origin(o)) {
            log::warn!("refused a WebSocket from origin {origin:?}");
            return (
                StatusCode::FORBIDDEN,
                "WebSocket from another site refused\n",
            )
                .into_response();
        }
    }
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| connection::run(socket, app))
}
