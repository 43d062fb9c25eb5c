//! The accept loop: each connection served by hyper's HTTP/1 with a time limit on a request's
//! head (which `axum::serve` leaves unset: a client that opens connections and sends a byte a
//! minute would hold each one, and its task, for ever), and a graceful stop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tower::ServiceExt;

use super::{router, Server};

/// How long connections still open at a stop may take to finish their answers.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Serves `server` on `listener` until `stop` resolves, each request's head limited to
/// `head_timeout`; then lets the connections open finish their answers (for a few seconds).
pub async fn serve(
    listener: tokio::net::TcpListener,
    server: Arc<Server>,
    head_timeout: Duration,
    stop: impl Future<Output = ()>,
) {
    let app = router(server);
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                // out of file descriptors and the like: wait a little rather than spin
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // without it, a job's small events wait for the client's delayed ACK (40 ms on Linux)
        // behind the one before (Nagle's algorithm)
        let _ = tcp.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |req: Request<Incoming>| app.clone().oneshot(req.map(Body::new)));
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(head_timeout)
            .serve_connection(TokioIo::new(tcp), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // a client gone or a head too slow: nothing to tell anyone
            let _ = conn.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(STOP_GRACE, graceful.shutdown()).await;
}
