// Package redact keeps credentials out of tool answers. It knows which
// names look like credentials ([SecretName]: password, token, apiKey,
// authorization, cookie, dsn, ... in any case and with any separators,
// and names ending in a word such as pass or pwd: DB_PASS, MYSQL_PWD)
// and which shapes of text are credentials whatever they are called
// ([String]: "Bearer …" and "Basic …" headers, AWS access key ids, PEM
// blocks, passwords in URLs and tokens as a URL's user, well-known token
// formats, and credential-named pairs inside a rendered value:
// password=…, 'token': '…', Cookie: …, --password …, ('api_key', '…'),
// <password>…</password>, password%3D…, with quotes escaped to any depth
// as JSON inside JSON has them). [JSON] applies both to a tool's answer:
// it rewrites only value fields (see [ValueKey]: value, result, old,
// new, values, first, last, min, max, sample, samples) and the entries
// of maps keyed by a credential name, never names, types, ids or paths.
// A value it cannot see the end of, or nested past its depth limit, is
// redacted whole: it fails closed.
//
// A credential is replaced by [Mark]. Redaction only ever removes text:
// it never invents a value.
package redact
