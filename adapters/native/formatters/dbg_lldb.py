"""dbg's LLDB formatters: values LLDB shows wrong or not at all.

Loaded into lldb-dap / lldb-vscode with `command script import`; the
formatters live in the category "dbg", enabled above LLDB's own and
rustc's ("Rust"), so they win where both match.

  - references (C++ `T &`, every Rust pointer type, which is how LLDB
    sees `&T`) read as the value they refer to, with its children;
  - C and C++ pointers keep their address and add what they point to
    ("0x7ffd... -> 8"); char pointers read as strings;
  - libstdc++: unordered_map/set (LLDB 14 and 16 read every one as
    size=0), shared_ptr/unique_ptr (the pointee), optional (the value)
    and variant (the active alternative);
  - Rust enums (Option, Result, enums with data), which LLDB before 17
    reads as empty structs: dbg reads their layout from the program's
    DWARF and hands it over with rust_enums(path).

Every provider answers nothing rather than a guess: a value it cannot
decode keeps LLDB's own display.
"""

import json

import lldb

CATEGORY = "dbg"
MAX_CHILDREN = 1000
PREVIEW_ITEMS = 5

_enums = {}  # Rust enum type name -> layout (see rust_enums)
_alias = {}  # LLDB 14's short name "#" size -> type name, "" if several
_decl = {}  # "file:line:variable" -> type name, "" if several


def __lldb_init_module(debugger, internal_dict):
    cat = debugger.GetCategory(CATEGORY)
    if not cat.IsValid():
        cat = debugger.CreateCategory(CATEGORY)
    mod = __name__
    regex = [
        (r"^.+ &&?$", mod + ".RefSynth", mod + ".ref_summary"),
        (r"^.+\*( const| volatile| restrict)*$", mod + ".PtrSynth", mod + ".ptr_summary"),
        (r"^std::unordered_(multi)?(map|set)<.+>$", mod + ".HashtableSynth", mod + ".size_summary"),
        (r"^std::(shared_ptr|unique_ptr|weak_ptr)<.+>$", mod + ".SmartPtrSynth", mod + ".smart_ptr_summary"),
        (r"^std::optional<.+>$", mod + ".OptionalSynth", mod + ".optional_summary"),
        (r"^std::variant<.+>$", mod + ".VariantSynth", mod + ".variant_summary"),
    ]
    for pattern, synth, summary in regex:
        _add(cat, lldb.SBTypeNameSpecifier(pattern, True), synth, summary)
    # Pairs and tuples have children but no summary, which lldb-dap shows
    # as their type and address.
    f = lldb.SBTypeSummary.CreateWithFunctionName(mod + ".struct_summary")
    f.SetOptions(lldb.eTypeOptionCascade)
    cat.AddTypeSummary(lldb.SBTypeNameSpecifier(r"^std::(pair|tuple)<.+>$", True), f)
    debugger.HandleCommand("type category enable " + CATEGORY)


def _add(cat, spec, synth, summary):
    s = lldb.SBTypeSynthetic.CreateWithClassName(synth)
    s.SetOptions(lldb.eTypeOptionCascade)
    cat.AddTypeSynthetic(spec, s)
    f = lldb.SBTypeSummary.CreateWithFunctionName(summary)
    f.SetOptions(lldb.eTypeOptionCascade)
    cat.AddTypeSummary(spec, f)


def rust_enums(path):
    """Registers the Rust enums whose layouts dbg wrote to path (JSON)."""
    with open(path) as f:
        table = json.load(f)
    _enums.update(table.get("enums") or {})
    _alias.update(table.get("alias") or {})
    _decl.update(table.get("decl") or {})
    cat = lldb.debugger.GetCategory(CATEGORY)
    names = set(_enums) | set(k.rsplit("#", 1)[0] for k in _alias)
    for name in names:
        _add(cat, lldb.SBTypeNameSpecifier(name, False), __name__ + ".RustEnumSynth", __name__ + ".rust_enum_summary")


def _enum_layout(valobj):
    """The layout of a Rust enum value: by its type's name (LLDB 16), else
    by its declaration or its short name and size (LLDB 14)."""
    name = valobj.GetTypeName()
    if name in _enums:
        return _enums[name]
    key = _decl_key(valobj)
    if key is None:
        var = _same_variable(valobj)
        key = None if var is None else _decl_key(var)
    if key in _decl:
        return _enums.get(_decl[key])
    full = _alias.get("%s#%d" % (name, valobj.GetByteSize()))
    return _enums.get(full) if full else None


def _decl_key(v):
    decl = v.GetDeclaration()
    if not decl.IsValid() or not decl.GetFileSpec().GetFilename():
        return None
    return "%s:%d:%s" % (decl.GetFileSpec().GetFilename(), decl.GetLine(), v.GetName())


def _same_variable(valobj):
    """The variable of the selected frame at valobj's address and of its
    type: what an expression result ("$0" for `some`) is a copy of."""
    addr = valobj.GetLoadAddress()
    if addr == lldb.LLDB_INVALID_ADDRESS:
        return None
    frame = _frame(valobj)
    if frame is None:
        return None
    for var in frame.GetVariables(True, True, False, True):
        if var.GetLoadAddress() == addr and var.GetTypeName() == valobj.GetTypeName():
            return var
    return None


def _frame(valobj):
    """valobj's frame, else the selected one of its process."""
    f = valobj.GetFrame()
    if f.IsValid():
        return f
    f = valobj.GetProcess().GetSelectedThread().GetSelectedFrame()
    return f if f.IsValid() else None


# ---- shared helpers ---------------------------------------------------


def _summary(fn):
    """A summary function that answers "" (no summary: LLDB shows "None"
    for None) when fn has nothing or fails."""

    def run(valobj, internal_dict):
        try:
            return fn(valobj) or ""
        except Exception:
            return ""

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _is_rust(valobj):
    f = _frame(valobj)
    if f is None:
        return False
    cu = f.GetCompileUnit()
    return cu.IsValid() and cu.GetLanguage() == lldb.eLanguageTypeRust


def _synth(v):
    v.SetPreferSyntheticValue(True)
    return v


def preview(v, depth=0):
    """A one-line view of v: its summary, its value, or its first children."""
    if v is None or not v.IsValid():
        return None
    v = _synth(v)
    s = v.GetSummary()
    if s:
        return s.strip()
    t = v.GetType()
    known = _known_type(v.GetTarget(), t)
    if known.GetName() != t.GetName() and v.GetLoadAddress() != lldb.LLDB_INVALID_ADDRESS:
        return preview(v.CreateValueFromAddress(v.GetName(), v.GetLoadAddress(), known), depth)
    val = v.GetValue()
    n = v.GetNumChildren()
    if val and (n == 0 or not v.MightHaveChildren()):
        return val
    if val and v.GetType().IsPointerType():
        return val
    if n == 0:
        return val or "{}"
    if depth >= 2:
        return "{...}"
    parts = []
    for i in range(min(n, PREVIEW_ITEMS)):
        c = v.GetChildAtIndex(i)
        p = preview(c, depth + 1)
        if p is None:
            return None
        name = c.GetName() or ""
        parts.append(p if name.startswith("[") else name + ": " + p)
    if n > PREVIEW_ITEMS:
        parts.append("...")
    return "{" + ", ".join(parts) + "}"


def _find(v, name, depth=0):
    """The first member called name at or below v (depth first, bases too)."""
    if depth > 8 or not v.IsValid():
        return None
    c = v.GetChildMemberWithName(name)
    if c.IsValid():
        return c
    for i in range(v.GetNumChildren()):
        r = _find(v.GetChildAtIndex(i), name, depth + 1)
        if r is not None:
            return r
    return None


def _first_pointer(v, depth=0):
    if depth > 8 or not v.IsValid():
        return None
    if v.GetType().IsPointerType():
        return v
    for i in range(v.GetNumChildren()):
        r = _first_pointer(v.GetChildAtIndex(i), depth + 1)
        if r is not None:
            return r
    return None


def _align(t, depth=0):
    """The alignment of t under the x86-64 and aarch64 ABIs."""
    t = t.GetCanonicalType()
    if depth > 16:
        return 8
    if t.IsArrayType():
        return _align(t.GetArrayElementType(), depth + 1)
    n = t.GetNumberOfFields() + t.GetNumberOfDirectBaseClasses()
    if n == 0:
        return max(1, min(t.GetByteSize(), 16))
    a = 1
    for i in range(t.GetNumberOfFields()):
        a = max(a, _align(t.GetFieldAtIndex(i).GetType(), depth + 1))
    for i in range(t.GetNumberOfDirectBaseClasses()):
        a = max(a, _align(t.GetDirectBaseClassAtIndex(i).GetType(), depth + 1))
    return a


class _Children:
    """A synthetic provider over a list of SBValues made in update()."""

    def __init__(self, valobj, internal_dict):
        self.valobj = valobj
        self.kids = []

    def num_children(self):
        return len(self.kids)

    def get_child_index(self, name):
        for i, k in enumerate(self.kids):
            if k.GetName() == name:
                return i
        try:
            return int(name.lstrip("[").rstrip("]"))
        except ValueError:
            return -1

    def get_child_at_index(self, index):
        if 0 <= index < len(self.kids):
            return self.kids[index]
        return None

    def has_children(self):
        return True

    def update(self):
        try:
            self.kids = self.make() or []
        except Exception:
            self.kids = []
        return False

    def make(self):
        return []


def _pointee_children(p):
    """The children of what pointer (or reference) p points to."""
    d = _synth(p.Dereference())
    if not d.IsValid() or d.GetError().Fail():
        return []
    n = d.GetNumChildren()
    if n == 0:
        return []
    return [d.GetChildAtIndex(i) for i in range(min(n, MAX_CHILDREN))]


# ---- references and pointers -----------------------------------------


class RefSynth(_Children):
    """A C++ reference: the value it refers to, and that value's children."""

    def make(self):
        return _pointee_children(self.valobj)


@_summary
def ref_summary(valobj):
    d = valobj.GetNonSyntheticValue().Dereference()
    if d.IsValid() and d.GetError().Success():
        return preview(d)
    return None


_CHARS = ("char", "signed char", "unsigned char", "char8_t")


def _pointee_type(valobj):
    return valobj.GetType().GetCanonicalType().GetPointeeType().GetUnqualifiedType()


def _is_char_pointer(valobj):
    return _pointee_type(valobj).GetName() in _CHARS


def _c_string(valobj):
    addr = valobj.GetValueAsUnsigned(0)
    if addr == 0:
        return None
    err = lldb.SBError()
    data = valobj.GetProcess().ReadMemory(addr, 256, err)
    if err.Fail() or data is None:
        return None
    end = data.find(b"\0")
    text = data if end < 0 else data[:end]
    out = json.dumps(text.decode("utf-8", "backslashreplace"), ensure_ascii=False).replace("\\\\x", "\\x")
    return out if end >= 0 else out + "..."


class PtrSynth(_Children):
    """A pointer: the children of what it points to (a pointee without
    children is the one child), none for null, void, char and function
    pointers. In Rust, where LLDB shows `&T` as a pointer, the layer in
    front of LLDB also shows the pointee as the value."""

    def _opaque(self):
        v = self.valobj
        pt = _pointee_type(v)
        return v.GetValueAsUnsigned(0) == 0 or pt.GetName() == "void" or pt.IsFunctionType() or (
            pt.GetName() in _CHARS and not _is_rust(v))

    def make(self):
        if self._opaque():
            return []
        kids = _pointee_children(self.valobj)
        if kids:
            return kids
        d = self.valobj.Dereference()
        if not d.IsValid() or d.GetError().Fail():
            return []
        if _is_rust(self.valobj) and d.GetValue() is not None:
            return []
        return [d]

    def has_children(self):
        try:
            return not self._opaque()
        except Exception:
            return False


@_summary
def ptr_summary(valobj):
    v = valobj.GetNonSyntheticValue()
    if v.GetValueAsUnsigned(0) == 0:
        return None
    pt = _pointee_type(v)
    if pt.GetName() == "void" or pt.IsFunctionType():
        return None
    if pt.GetName() in _CHARS:
        return _c_string(v)
    d = v.Dereference()
    if not d.IsValid() or d.GetError().Fail():
        return None
    p = preview(d)
    if p is None:
        return None
    if _is_rust(valobj):
        return p
    return "-> " + p


# ---- libstdc++ ----------------------------------------------------------


@_summary
def struct_summary(valobj):
    v = _synth(valobj)
    if v.GetNumChildren() == 0:
        return None
    return preview(v)


def _known_type(target, t):
    """t, or where LLDB 14 lost a std::string's template arguments (it
    names it basic_string<..., std::allocator<> >, which its own string
    summary does not match) the program's std::string."""
    name = t.GetName() or ""
    if "basic_string<char," in name and "allocator<>" in name:
        alt = target.FindFirstType("std::string")
        if alt.IsValid() and alt.GetByteSize() == t.GetByteSize():
            return alt
    return t


class HashtableSynth(_Children):
    """std::unordered_map/set: the nodes of the hashtable's list."""

    def make(self):
        self.count = None
        h = self.valobj.GetNonSyntheticValue().GetChildMemberWithName("_M_h")
        if not h.IsValid():
            return []
        count = h.GetChildMemberWithName("_M_element_count")
        node = h.GetChildMemberWithName("_M_before_begin").GetChildMemberWithName("_M_nxt")
        if not count.IsValid() or not node.IsValid():
            return []
        n = count.GetValueAsUnsigned(0)
        vt = h.GetType().GetTemplateArgumentType(1)
        if not vt.IsValid() or vt.GetByteSize() == 0:
            return []
        ptr = node.GetType().GetByteSize()
        a = _align(vt)
        off = (ptr + a - 1) // a * a
        kids = []
        addr = node.GetValueAsUnsigned(0)
        err = lldb.SBError()
        proc = self.valobj.GetProcess()
        while addr != 0 and len(kids) < min(n, MAX_CHILDREN):
            kids.append(self.valobj.CreateValueFromAddress("[%d]" % len(kids), addr + off, vt))
            addr = proc.ReadPointerFromMemory(addr, err)
            if err.Fail():
                return []
        # A list shorter than the count is a table being changed or a
        # layout this provider does not know: show nothing rather than
        # a wrong size.
        if len(kids) < min(n, MAX_CHILDREN):
            return []
        self.count = n
        return kids


@_summary
def size_summary(valobj):
    h = valobj.GetNonSyntheticValue().GetChildMemberWithName("_M_h")
    count = h.GetChildMemberWithName("_M_element_count")
    if not count.IsValid():
        return None
    n = count.GetValueAsUnsigned(0)
    v = _synth(valobj)
    if n > 0 and v.GetNumChildren() == 0:
        return None
    return "size=%d" % n


class SmartPtrSynth(_Children):
    """shared_ptr, unique_ptr, weak_ptr: the children of the pointee."""

    def make(self):
        p = _first_pointer(self.valobj.GetNonSyntheticValue())
        if p is None or p.GetValueAsUnsigned(0) == 0:
            return []
        kids = _pointee_children(p)
        if not kids:
            d = p.Dereference()
            if d.IsValid():
                return [d]
        return kids


@_summary
def smart_ptr_summary(valobj):
    v = valobj.GetNonSyntheticValue()
    p = _first_pointer(v)
    if p is None:
        return None
    if p.GetValueAsUnsigned(0) == 0:
        return "nullptr"
    if valobj.GetTypeName().startswith("std::weak_ptr"):
        use = _find(v, "_M_use_count")
        if use is None or use.GetValueAsUnsigned(0) == 0:
            return "expired"
    return preview(p.Dereference())


def _optional_parts(valobj):
    v = valobj.GetNonSyntheticValue()
    engaged = _find(v, "_M_engaged")
    value = _find(v, "_M_value")
    if engaged is None or value is None:
        return None, None
    return engaged.GetValueAsUnsigned(0) != 0, value


class OptionalSynth(_Children):
    """std::optional: the children of its value when it has one."""

    def make(self):
        has, value = _optional_parts(self.valobj)
        if not has:
            return []
        kids = _pointee_children(value.AddressOf())
        return kids or [value.Clone("value")]


@_summary
def optional_summary(valobj):
    has, value = _optional_parts(valobj)
    if has is None:
        return None
    if not has:
        return "nullopt"
    return preview(value)


def _variant_value(valobj):
    v = valobj.GetNonSyntheticValue()
    idx = _find(v, "_M_index")
    u = _find(v, "_M_u")
    if idx is None or u is None:
        return None, None
    i = idx.GetValueAsUnsigned(0)
    if i == (1 << (8 * idx.GetByteSize())) - 1:
        return i, None  # valueless by exception
    for _ in range(i):
        u = u.GetChildMemberWithName("_M_rest")
        if not u.IsValid():
            return None, None
    first = u.GetChildMemberWithName("_M_first")
    if not first.IsValid():
        return None, None
    t = first.GetType().GetTemplateArgumentType(0)
    if not t.IsValid():
        return None, None
    t = _known_type(valobj.GetTarget(), t)
    return i, valobj.CreateValueFromAddress("value", first.GetLoadAddress(), t)


class VariantSynth(_Children):
    """std::variant: the active alternative."""

    def make(self):
        i, value = _variant_value(self.valobj)
        return [] if value is None else [value]


@_summary
def variant_summary(valobj):
    i, value = _variant_value(valobj)
    if i is None:
        return None
    if value is None:
        return "valueless"
    p = preview(value)
    return None if p is None else "[%d] %s" % (i, p)


# ---- Rust enums -------------------------------------------------------


def _basic(target, kind, size):
    table = {
        ("int", 1): lldb.eBasicTypeSignedChar, ("int", 2): lldb.eBasicTypeShort,
        ("int", 4): lldb.eBasicTypeInt, ("int", 8): lldb.eBasicTypeLongLong,
        ("int", 16): lldb.eBasicTypeInt128,
        ("uint", 1): lldb.eBasicTypeUnsignedChar, ("uint", 2): lldb.eBasicTypeUnsignedShort,
        ("uint", 4): lldb.eBasicTypeUnsignedInt, ("uint", 8): lldb.eBasicTypeUnsignedLongLong,
        ("uint", 16): lldb.eBasicTypeUnsignedInt128,
        ("float", 4): lldb.eBasicTypeFloat, ("float", 8): lldb.eBasicTypeDouble,
        ("bool", 1): lldb.eBasicTypeBool, ("char", 4): lldb.eBasicTypeChar32,
    }
    b = table.get((kind, size))
    return None if b is None else target.GetBasicType(b)


def _resolve(target, t):
    """The SBType of a type descriptor written by dbg, or None."""
    if "base" in t:
        return _basic(target, t["base"], t["size"])
    if "ptr" in t:
        p = _resolve(target, t["ptr"])
        return None if p is None else p.GetPointerType()
    if "array" in t:
        e = _resolve(target, t["array"])
        return None if e is None else e.GetArrayType(t["count"])
    found = target.FindFirstType(t["name"])
    if not found.IsValid() or (found.GetByteSize() != t.get("size", found.GetByteSize())):
        return None
    return found


def _rust_variant(valobj):
    """The active variant of a Rust enum and its fields as SBValues."""
    layout = _enum_layout(valobj)
    if layout is None:
        return None, None
    v = valobj.GetNonSyntheticValue()
    addr = v.GetLoadAddress()
    if addr == lldb.LLDB_INVALID_ADDRESS:
        return None, None
    target = valobj.GetTarget()
    chosen = None
    d = layout.get("discr")
    if d is None:
        if len(layout["variants"]) == 1:
            chosen = layout["variants"][0]
    else:
        err = lldb.SBError()
        raw = valobj.GetProcess().ReadUnsignedFromMemory(addr + d["offset"], d["size"], err)
        if err.Fail():
            return None, None
        default = None
        for var in layout["variants"]:
            if "value" not in var:
                default = var
            elif var["value"] == raw:
                chosen = var
                break
        if chosen is None:
            chosen = default
    if chosen is None:
        return None, None
    fields = []
    for f in chosen.get("fields") or []:
        t = _resolve(target, f["type"])
        if t is None:
            return None, None
        name = f["name"][2:] if f["name"].startswith("__") and f["name"][2:].isdigit() else f["name"]
        fields.append(valobj.CreateValueFromAddress(name, addr + f["offset"], t))
    return chosen, fields


class RustEnumSynth(_Children):
    """A Rust enum: the fields of its active variant."""

    def make(self):
        chosen, fields = _rust_variant(self.valobj)
        return fields or []

    def has_children(self):
        try:
            chosen, fields = _rust_variant(self.valobj)
            return bool(fields)
        except Exception:
            return False


@_summary
def rust_enum_summary(valobj):
    chosen, fields = _rust_variant(valobj)
    if chosen is None:
        return None
    name = chosen["name"]
    if not fields:
        return name
    parts = []
    for f in fields:
        p = preview(f, 1)
        if p is None:
            return None
        parts.append(p if f.GetName().isdigit() else f.GetName() + ": " + p)
    if all(f.GetName().isdigit() for f in fields):
        return name + "(" + ", ".join(parts) + ")"
    return name + " { " + ", ".join(parts) + " }"
