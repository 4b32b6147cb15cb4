// Types for the files of undici that undici-parts.ts loads by path (undici types its index only).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: (
    this: import('undici').Dispatcher,
    options: import('undici').Dispatcher.RequestOptions,
  ) => Promise<import('undici').Dispatcher.ResponseData>;
  export default request;
}
