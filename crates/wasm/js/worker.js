// The static site's back end: the engine in a Web Worker, answering the page
// (crates/web/assets/app.js) as `grader serve` does, off the page's thread.
//
// Messages from the page: {id, kind: "api", method, path, body, hideOps} (a
// route of grader serve's API), {id, kind: "generate", options} (New puzzle).
// Answers: {id, answer: {status, body}}, {id, rows}, {id, progress: {found,
// tried}}, or {id, error: {name, message, bug}}. The page terminates the worker
// to cancel what it computes, and starts a new one.

const engine = import("./kenken.js");
let page = null;

async function handle(message) {
  const kenken = await engine;
  const { id } = message;
  try {
    if (message.kind === "api") {
      page ??= new kenken.PageEngine(message.hideOps === true);
      postMessage({ id, answer: page.answer(message.method, message.path, message.body) });
    } else if (message.kind === "generate") {
      const rows = kenken.generate(message.options, (progress) => postMessage({ id, progress }));
      postMessage({ id, rows });
    } else {
      postMessage({ id, error: { name: "TypeError", message: `unknown request ${message.kind}`, bug: true } });
    }
  } catch (error) {
    const bug = error instanceof kenken.InternalError || !(error instanceof kenken.KenkenError);
    postMessage({ id, error: { name: error.name, message: error.message, bug } });
  }
}

// Requests are answered one at a time, in the order they came.
let queue = Promise.resolve();
self.onmessage = (event) => {
  queue = queue.then(() => handle(event.data));
};
engine.then(
  () => postMessage({ ready: true }),
  (error) => postMessage({ failed: String(error && error.message ? error.message : error) }),
);
