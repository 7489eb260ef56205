package nodedap

import "regexp"

// skippedExceptionLocked reports whether an exception pause lies wholly
// in code skipFiles hides: every frame is in a skipped script (node's own
// code, or a file a skipFiles glob names). V8 leaves such exceptions out
// only when the frame that throws is a skipped file's; an exception that
// node itself throws, and catches or hands to the skipped code that
// called it (require probing for an optional module, the ESM loader
// trying a bare specifier as a URL), still pauses, in frames the client
// asked not to see. Call with mu held.
func (h *Handler) skippedExceptionLocked(ev *pausedEvent) bool {
	if (ev.Reason != "exception" && ev.Reason != "promiseRejection") || len(ev.CallFrames) == 0 || len(h.skip) == 0 {
		return false
	}
	var skip []*regexp.Regexp
	for _, pat := range h.skip {
		if re, err := regexp.Compile(pat); err == nil {
			skip = append(skip, re)
		}
	}
	for _, f := range ev.CallFrames {
		url := f.URL
		if s := h.scripts[f.Location.ScriptID]; s != nil {
			url = s.url
		}
		if !skippedURL(skip, url) {
			return false
		}
	}
	return true
}

// skippedURL reports whether a script's URL matches a skip pattern.
func skippedURL(skip []*regexp.Regexp, url string) bool {
	if url == "" {
		return false
	}
	for _, re := range skip {
		if re.MatchString(url) {
			return true
		}
	}
	return false
}
