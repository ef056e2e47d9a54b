//! A TCP listener that holds at most a fixed number of connections open:
//! beyond it, new connections wait in the kernel's accept queue instead of
//! each costing the server buffers and a task. A connection on which
//! nothing is read or written for the idle timeout is closed, so clients
//! that connect and say nothing (or trickle bytes) cannot keep the places,
//! unless a request of that connection is being answered
//! ([`track_requests`]): a long computation is not idleness.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// [`TcpListener`] with a bound on open connections. Serve
/// [`track_requests`]`(app)` with connection information [`Connection`] so
/// that connections are not closed as idle while answering.
#[derive(Debug)]
pub struct BoundedListener {
    inner: TcpListener,
    open: Arc<Semaphore>,
    idle: Duration,
}

impl BoundedListener {
    /// Accepts at most `max_connections` connections at once, each closed
    /// after `idle` without a byte read or written.
    pub fn new(inner: TcpListener, max_connections: usize, idle: Duration) -> BoundedListener {
        BoundedListener {
            inner,
            open: Arc::new(Semaphore::new(max_connections.max(1))),
            idle,
        }
    }
}

/// A connection, holding its place until dropped.
#[derive(Debug)]
pub struct BoundedStream {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    answering: Answering,
}

/// How many requests of one connection are being answered (shared by the
/// connection and, through [`track_requests`], its requests).
#[derive(Debug, Clone, Default)]
pub struct Answering(Arc<AtomicUsize>);

/// What a request knows of its connection (axum's connection
/// information): the client's address, and the count of the connection's
/// requests being answered.
#[derive(Debug, Clone)]
pub struct Connection {
    /// The client's address.
    pub peer: SocketAddr,
    answering: Answering,
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, BoundedListener>>
    for Connection
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, BoundedListener>) -> Self {
        Connection {
            peer: *stream.remote_addr(),
            answering: stream.io().answering.clone(),
        }
    }
}

impl Answering {
    /// Counts one more request as being answered, until the guard drops.
    fn enter(&self) -> AnsweringGuard {
        self.0.fetch_add(1, Ordering::Relaxed);
        AnsweringGuard(Arc::clone(&self.0))
    }

    /// True while some request of the connection is being answered.
    fn any(&self) -> bool {
        self.0.load(Ordering::Relaxed) > 0
    }
}

/// Counts a request as being answered until dropped.
struct AnsweringGuard(Arc<AtomicUsize>);

impl Drop for AnsweringGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// `app` with each request counted as being answered on its connection
/// while its handler runs, so that [`BoundedListener`] does not close the
/// connection as idle meanwhile. Serve the result with
/// `into_make_service_with_connect_info::<Connection>()`; without that
/// connection information (as in `Router::oneshot`) requests pass as they
/// are.
pub fn track_requests(app: axum::Router) -> axum::Router {
    app.layer(axum::middleware::from_fn(
        |req: axum::extract::Request, next: axum::middleware::Next| async move {
            let _guard = req
                .extensions()
                .get::<axum::extract::ConnectInfo<Connection>>()
                .map(|info| info.0.answering.enter());
            next.run(req).await
        },
    ))
}

impl BoundedStream {
    /// Passes on the result of polling the socket: progress pushes the idle
    /// deadline back; waiting past it becomes a `TimedOut` error.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match polled {
            Poll::Ready(r) => {
                let at = Instant::now() + self.idle;
                self.deadline.as_mut().reset(at);
                Poll::Ready(r)
            }
            Poll::Pending if self.deadline.as_mut().poll(cx).is_ready() => {
                if !self.answering.any() {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "connection idle for too long",
                    )));
                }
                // A request is being answered: look again one timeout on
                // (polling the new deadline asks to be woken then).
                let at = Instant::now() + self.idle;
                self.deadline.as_mut().reset(at);
                let _ = self.deadline.as_mut().poll(cx);
                Poll::Pending
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl axum::serve::Listener for BoundedListener {
    type Io = BoundedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let permit = Arc::clone(&self.open)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    return (
                        BoundedStream {
                            stream,
                            _permit: permit,
                            idle: self.idle,
                            deadline: Box::pin(tokio::time::sleep(self.idle)),
                            answering: Answering::default(),
                        },
                        addr,
                    );
                }
                // Out of file descriptors and the like: wait a moment
                // rather than spin (the way axum's own listener does).
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for BoundedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        self.watch(cx, polled)
    }
}

impl AsyncWrite for BoundedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.watch(cx, polled)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Serves `app` (with requests tracked) on a listener closing
    /// connections idle for `idle`; returns its address and its task.
    async fn spawn_server(
        app: axum::Router,
        idle: Duration,
    ) -> (SocketAddr, tokio::task::JoinHandle<()>) {
        let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = tcp.local_addr().unwrap();
        let server = tokio::spawn(async move {
            axum::serve(
                BoundedListener::new(tcp, 4, idle),
                track_requests(app).into_make_service_with_connect_info::<Connection>(),
            )
            .await
            .unwrap()
        });
        (addr, server)
    }

    /// A client that sends half a request and falls silent is still closed
    /// (no request is being answered).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn half_a_request_is_idleness() {
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "hi" }));
        let (addr, server) = spawn_server(app, Duration::from_millis(200)).await;
        let mut client = TcpStream::connect(addr).await.unwrap();
        client.write_all(b"GET / HTTP/1.1\r\nHo").await.unwrap();
        let start = std::time::Instant::now();
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut answer));
        assert!(read.await.is_ok(), "the silent client is never closed");
        assert!(start.elapsed() >= Duration::from_millis(150));
        server.abort();
    }

    /// A request whose answer takes longer than the idle timeout is
    /// answered: the connection is busy, not idle.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_long_computation_is_not_idleness() {
        let app = axum::Router::new().route(
            "/slow",
            axum::routing::get(|| async {
                tokio::time::sleep(Duration::from_millis(800)).await;
                "done"
            }),
        );
        let (addr, server) = spawn_server(app, Duration::from_millis(200)).await;
        let mut client = TcpStream::connect(addr).await.unwrap();
        client
            .write_all(b"GET /slow HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        let _ = client.read_to_end(&mut answer).await;
        server.abort();
        let answer = String::from_utf8_lossy(&answer);
        assert!(
            answer.starts_with("HTTP/1.1 200") && answer.ends_with("done"),
            "{answer:?}"
        );
    }
}
