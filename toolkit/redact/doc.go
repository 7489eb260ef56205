// Package redact keeps credentials out of tool answers. It knows which
// names look like credentials ([SecretName]: password, token, apiKey,
// authorization, cookie, ... in any case and with any separators) and
// which shapes of text are credentials whatever they are called
// ([String]: "Bearer …" and "Basic …" headers, AWS access key ids, PEM
// blocks, passwords in URLs, well-known token formats, and
// credential-named pairs such as password=… or 'token': '…' inside a
// rendered value). [JSON] applies both to a tool's answer: it rewrites
// only value fields (see [ValueKey]: value, result, old, new, values,
// first, last, min, max, sample, samples) and the entries of maps keyed
// by a credential name, never names, types, ids or paths.
//
// A credential is replaced by [Mark]. Redaction only ever removes text:
// it never invents a value.
package redact
