// Types of server.mjs, for the TypeScript tests that drive a framework against it.
export interface RecordedRequest {
  readonly at: number
  readonly method: string
  readonly url: string
  readonly protocol: string
  readonly main: boolean
  readonly answer: string
  readonly body: any
}

export interface ModelServer {
  readonly port: number
  readonly url: string
  readonly requests: Array<RecordedRequest>
  readonly stray: Array<string>
  /** How many times the model asked for the shell tool. */
  readonly toolCalls: number
  /** Everything the model was sent (main-loop requests) after it first asked for the tool, as text. */
  sentAfterToolCall(): string
  /** Everything every main-loop request sent the model, as text. */
  sentToModel(): string
  mainRequests(): number
  close(): Promise<void>
}

export declare function startModelServer(options?: {
  readonly command?: string
  readonly call?: "shell" | "read"
  readonly readPath?: string
}): Promise<ModelServer>
