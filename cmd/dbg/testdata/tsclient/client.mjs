// Drives `dbg mcp` with the official MCP TypeScript client: lists the
// tools and prompts and runs a short mock session, so a test can tell
// that this client accepts what dbg sends (its tools without output
// schemas, their annotations, the answers' structured content and
// resource links). Usage: node client.mjs SDK_DIR DBG_BINARY PROGRAM [FLAG...]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdkDir, dbg, program, ...flags] = process.argv.slice(2);
const esm = (p) => pathToFileURL(path.join(sdkDir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(esm('client/index.js'));
const { StdioClientTransport } = await import(esm('client/stdio.js'));

const client = new Client({ name: 'ts-e2e', version: '1' });
await client.connect(new StdioClientTransport({ command: dbg, args: ['mcp', ...flags], env: process.env, stderr: 'inherit' }));
const tools = (await client.listTools()).tools;
const prompts = (await client.listPrompts()).prompts;
const prompt = await client.getPrompt({ name: 'investigate-crash', arguments: { language: 'mock', program } });
const data = (r) => {
  if (r.isError || !r.structuredContent || !r.structuredContent.success) {
    throw new Error('call failed: ' + JSON.stringify(r));
  }
  return r.structuredContent.data;
};
const created = await client.callTool({ name: 'create_debug_session', arguments: { language: 'mock' } });
const sessionId = data(created).sessionId;
const started = data(await client.callTool({ name: 'start_debugging', arguments: { sessionId, scriptPath: program, stopOnEntry: true } }));
const stack = data(await client.callTool({ name: 'get_stack_trace', arguments: { sessionId } }));
data(await client.callTool({ name: 'close_debug_session', arguments: { sessionId } }));
console.log(JSON.stringify({
  tools: tools.length,
  annotated: tools.filter((t) => t.annotations && t.annotations.title).length,
  outputSchemas: tools.filter((t) => t.outputSchema).length,
  prompts: prompts.map((p) => p.name).sort(),
  promptText: prompt.messages[0].content.text,
  links: created.content.filter((c) => c.type === 'resource_link').map((c) => c.uri),
  state: started.state,
  frames: stack.stackFrames.length,
}));
await client.close();
