package debugtools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/debugtools/javasrc"
	"github.com/dbg-dev/dbg/toolkit"
)

// maxSourceIndexes bounds the number of projects whose parsed sources are
// kept in memory.
const maxSourceIndexes = 8

// sourceTools serves the tools that read the project's Java sources and
// files: generate_method_args_template, search_http_url,
// list_method_around_scripts and get_method_around_script. It needs no
// JVM. Handlers run concurrently; the index cache is guarded by mu and
// each index guards itself.
type sourceTools struct {
	m   Manager
	now func() time.Time

	mu      sync.Mutex
	indexes map[string]*cachedIndex
}

type cachedIndex struct {
	ix   *javasrc.Index
	used time.Time
}

// registerSourceTools adds the source-reading JVM tools to tb. The clock
// (date placeholders, cache bookkeeping) is cfg.Now, else the manager's.
func registerSourceTools(tb *toolkit.Toolbox, m Manager, cfg Config) {
	now := cfg.Now
	if now == nil {
		now = m.Now
	}
	st := &sourceTools{m: m, now: now, indexes: map[string]*cachedIndex{}}
	declareToolset(tb, m)
	toolkit.AddTool(tb, "generate_method_args_template",
		"The argsJson template of a Java method from the project's sources ({type, content} per parameter, in order).",
		st.argsTemplate, toolkit.Hints{Title: "Method args template", ReadOnly: true}, toolkit.InToolset(Toolset), toolkit.Enum("genParamType", "SIMPLE", "CURRENT", "ALL"))
	toolkit.AddTool(tb, "search_http_url",
		"HTTP endpoints declared in the Java sources (Spring, JAX-RS): controller class and method to invoke.",
		st.searchHTTP, toolkit.Hints{Title: "Search HTTP endpoints", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "list_method_around_scripts",
		"The project's saved Method Around scripts (.idea/DebugTools/MethodAround): names, sizes, times.",
		st.listScripts, toolkit.Hints{Title: "Method Around scripts", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "get_method_around_script",
		"One Method Around script by name: its Java source and content MD5.",
		st.getScript, toolkit.Hints{Title: "Method Around script", ReadOnly: true}, toolkit.InToolset(Toolset))
}

// projectDir resolves the project of a call: projectPath, else the
// directory of the named session, else the server's project.
func (st *sourceTools) projectDir(projectPath, sessionID string) (string, error) {
	if err := knownSession(st.m, sessionID); err != nil {
		return "", err
	}
	if projectPath == "" && sessionID != "" {
		s, err := st.m.Get(sessionID)
		if err != nil {
			return "", err
		}
		info := s.Info()
		for _, p := range []string{info.Cwd, info.Program} {
			if p != "" && filepath.IsAbs(p) {
				if _, err := os.Stat(p); err == nil {
					projectPath = p
					break
				}
			}
		}
	}
	return st.m.ResolveProject(projectPath)
}

// sourceRoot is the folder whose Java sources a call reads: projectPath
// itself when it names a folder (so a source folder inside a larger tree
// can be read alone), else the resolved project.
func (st *sourceTools) sourceRoot(projectPath, sessionID string) (string, error) {
	if err := knownSession(st.m, sessionID); err != nil {
		return "", err
	}
	if projectPath != "" {
		if abs, err := filepath.Abs(projectPath); err == nil {
			if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
				return abs, nil
			}
		}
	}
	return st.projectDir(projectPath, sessionID)
}

// index returns the up-to-date source index of root.
func (st *sourceTools) index(ctx context.Context, root string) (*javasrc.Index, error) {
	st.mu.Lock()
	c, ok := st.indexes[root]
	if !ok {
		if len(st.indexes) >= maxSourceIndexes {
			var oldest string
			for k, v := range st.indexes {
				if oldest == "" || v.used.Before(st.indexes[oldest].used) {
					oldest = k
				}
			}
			delete(st.indexes, oldest)
		}
		c = &cachedIndex{ix: javasrc.NewIndex(root)}
		st.indexes[root] = c
	}
	c.used = st.now()
	st.mu.Unlock()
	if err := c.ix.Refresh(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, toolkit.NewError(toolkit.CodeTimeout, "reading the project's Java sources was interrupted", "retry").Retry().Wrap(err)
		}
		return nil, toolkit.NewError(toolkit.CodeNoProject, "cannot read the project's Java sources", "pass the project directory as projectPath").Wrap(err)
	}
	return c.ix, nil
}

// argsTemplateIn is the input of generate_method_args_template.
type argsTemplateIn struct {
	ClassName      string   `json:"className" jsonschema:"fully qualified (Outer.Inner or Outer$Inner)"`
	MethodName     string   `json:"methodName"`
	ParameterTypes []string `json:"parameterTypes,omitempty" jsonschema:"to pick an overload"`
	GenParamType   string   `json:"genParamType,omitempty" jsonschema:"default ALL"`
	Expansion      string   `json:"expansion,omitempty" jsonschema:"alias of genParamType"`
	ProjectPath    string   `json:"projectPath,omitempty" jsonschema:"or a source folder, or a file in the project"`
	SessionID      string   `json:"sessionId,omitempty" jsonschema:"its program names the project"`
}

// argsTemplateOut is the result of generate_method_args_template, with the
// DebugTools fields first.
type argsTemplateOut struct {
	Success        bool                    `json:"success"`
	ClassName      string                  `json:"className"`
	MethodName     string                  `json:"methodName"`
	ParameterNames []string                `json:"parameterNames"`
	ParameterTypes []string                `json:"parameterTypes"`
	ArgsJSON       string                  `json:"argsJson"`
	GenParamType   string                  `json:"genParamType"`
	ErrorMessage   *string                 `json:"errorMessage"`
	Parameters     []javasrc.ParamTemplate `json:"parameters"`
	File           string                  `json:"file"`
	Line           int                     `json:"line"`
}

func (st *sourceTools) argsTemplate(ctx context.Context, in argsTemplateIn) (argsTemplateOut, error) {
	var out argsTemplateOut
	in.ClassName, in.MethodName = strings.TrimSpace(in.ClassName), strings.TrimSpace(in.MethodName)
	if in.ClassName == "" || in.MethodName == "" {
		return out, toolkit.NewError(toolkit.CodeInvalidArgument, "className and methodName are required",
			"pass the fully qualified class name and the method name")
	}
	mode := in.GenParamType
	if mode == "" {
		mode = in.Expansion
	}
	exp, ok := javasrc.ParseExpansion(mode)
	if !ok {
		return out, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("unknown genParamType %q", mode),
			"use SIMPLE, CURRENT or ALL").WithOptions(string(javasrc.ExpandSimple), string(javasrc.ExpandCurrent), string(javasrc.ExpandAll))
	}
	root, err := st.sourceRoot(in.ProjectPath, in.SessionID)
	if err != nil {
		return out, err
	}
	ix, err := st.index(ctx, root)
	if err != nil {
		return out, err
	}
	tp, err := ix.Template(javasrc.TemplateRequest{ClassName: in.ClassName, MethodName: in.MethodName,
		ParameterTypes: in.ParameterTypes, Expansion: exp, Now: st.now()})
	if err != nil {
		return out, lookupError(err, in, ix.FileCount())
	}
	return argsTemplateOut{Success: true, ClassName: tp.ClassName, MethodName: tp.MethodName,
		ParameterNames: tp.ParameterNames, ParameterTypes: tp.ParameterTypes, ArgsJSON: tp.ArgsJSON,
		GenParamType: string(tp.Expansion), Parameters: tp.Parameters, File: tp.File, Line: tp.Line}, nil
}

// lookupError turns a failed method lookup into an INVALID_ARGUMENT
// naming the choices.
func lookupError(err error, in argsTemplateIn, files int) error {
	var le *javasrc.LookupError
	if !errors.As(err, &le) {
		return err
	}
	details := map[string]any{"className": in.ClassName, "methodName": in.MethodName, "argsJson": "{}", "errorMessage": le.Message}
	var hint string
	switch le.Reason {
	case "class_not_found":
		hint = "pass the fully qualified name of a class declared in the project's sources"
		if len(le.Options) > 0 {
			hint = "did you mean one of availableOptions? pass it as className"
		}
		if files == 0 {
			hint = "no .java files were found: pass the project (or its source folder) as projectPath"
		}
		details["javaFiles"] = files
	case "method_not_found":
		hint = "pass one of the class's methods (availableOptions) as methodName"
	default:
		hint = "the method is overloaded: pass parameterTypes of one of availableOptions, in declaration order"
		details["candidates"] = le.Candidates
	}
	return toolkit.NewError(toolkit.CodeInvalidArgument, le.Message, hint).WithOptions(le.Options...).WithDetails(details).Wrap(err)
}

// searchHTTPIn is the input of search_http_url.
type searchHTTPIn struct {
	Path        string `json:"path,omitempty" jsonschema:"in the URL path"`
	Method      string `json:"method,omitempty" jsonschema:"GET also matches method-less mappings"`
	ModuleName  string `json:"moduleName,omitempty" jsonschema:"the folder holding src/"`
	Keyword     string `json:"keyword,omitempty" jsonschema:"in path, class, method or comment"`
	URL         string `json:"url,omitempty" jsonschema:"a concrete URL, matched against the templates"`
	Limit       int    `json:"limit,omitempty" jsonschema:"default 50"`
	ProjectPath string `json:"projectPath,omitempty" jsonschema:"or a source folder, or a file in the project"`
	SessionID   string `json:"sessionId,omitempty"`
}

// searchHTTPOut is the result of search_http_url.
type searchHTTPOut struct {
	Count      int               `json:"count"`
	Total      int               `json:"total"` // matches before the limit
	IndexState string            `json:"indexState"`
	Items      []javasrc.Mapping `json:"items"`
}

var httpMethods = map[string]bool{"GET": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true,
	"HEAD": true, "OPTIONS": true, "TRACE": true, javasrc.MethodAny: true}

func (st *sourceTools) searchHTTP(ctx context.Context, in searchHTTPIn) (searchHTTPOut, error) {
	out := searchHTTPOut{IndexState: "READY", Items: []javasrc.Mapping{}}
	in.Method = strings.ToUpper(strings.TrimSpace(in.Method))
	if in.Method != "" && !httpMethods[in.Method] {
		return out, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("unknown HTTP method %q", in.Method),
			"use GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS").WithOptions("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
	}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = 50
	case limit < 1:
		limit = 1
	case limit > 200:
		limit = 200
	}
	root, err := st.sourceRoot(in.ProjectPath, in.SessionID)
	if err != nil {
		return out, err
	}
	ix, err := st.index(ctx, root)
	if err != nil {
		return out, err
	}
	q := javasrc.HTTPQuery{Path: in.Path, Method: in.Method, ModuleName: in.ModuleName, Keyword: in.Keyword, URL: in.URL}
	for _, m := range ix.HTTPMappings() {
		if !q.Match(m) {
			continue
		}
		out.Total++
		if len(out.Items) < limit {
			out.Items = append(out.Items, m)
		}
	}
	out.Count = len(out.Items)
	return out, nil
}

// scriptsIn is the input of list_method_around_scripts.
type scriptsIn struct {
	ProjectPath string `json:"projectPath,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
}

// scriptsOut is the result of list_method_around_scripts.
type scriptsOut struct {
	Count   int                  `json:"count"`
	Scripts []MethodAroundScript `json:"scripts"`
}

func (st *sourceTools) listScripts(_ context.Context, in scriptsIn) (scriptsOut, error) {
	dir, err := st.projectDir(in.ProjectPath, in.SessionID)
	if err != nil {
		return scriptsOut{}, err
	}
	list, err := ListMethodAroundScripts(dir)
	if err != nil {
		return scriptsOut{}, err
	}
	return scriptsOut{Count: len(list), Scripts: list}, nil
}

// scriptIn is the input of get_method_around_script.
type scriptIn struct {
	Name        string `json:"name" jsonschema:"as list_method_around_scripts names it"`
	ProjectPath string `json:"projectPath,omitempty"`
	SessionID   string `json:"sessionId,omitempty"`
}

func (st *sourceTools) getScript(_ context.Context, in scriptIn) (MethodAroundSource, error) {
	if err := CheckScriptName(in.Name); err != nil {
		return MethodAroundSource{}, err
	}
	dir, err := st.projectDir(in.ProjectPath, in.SessionID)
	if err != nil {
		return MethodAroundSource{}, err
	}
	src, err := ReadMethodAroundScript(dir, in.Name)
	if err != nil {
		return MethodAroundSource{}, err
	}
	return *src, nil
}
