/**
 * The Python side of a Python script's sandbox, run as `__main__` before
 * the script. It hides the interpreter's own import behind an allow-list,
 * runs the script's module and handlers and answers the host in plain
 * values:
 *
 * - `None`: the call left `self.state` as committed (or nothing ran);
 * - an int of 2 or more: `self.state` changed, and this is the address in
 *   the engine's memory of `repr([self.state])` as NUL-terminated bytes
 *   (the host reads it there as JSON data, or asks `_explain` where it is
 *   not);
 * - `"\x00" + reason`: the handler raised (the host rolls the state back);
 * - `1`: a timer is due, nothing ran (quick tick only).
 *
 * A fault that stops the interpreter (fuel, memory) never comes back here:
 * the host discards the instance.
 */
export const PYTHON_PRELUDE = String.raw`
import builtins, json, sys, io, uctypes, _playfield_host
_import = builtins.__import__
_dumps = json.dumps
_loads = json.loads
_modules = sys.modules
_PURE = frozenset(("math", "cmath", "random", "json", "re", "collections", "heapq", "functools", "itertools",
    "string", "struct", "array", "copy", "operator", "time", "datetime", "binascii", "base64", "hashlib", "abc", "types"))
_sources = {}
_project = {}
_inner = [0]

def _describe(e):
    s = io.StringIO()
    sys.print_exception(e, s)
    where = ""
    for line in s.getvalue().split("\n"):
        line = line.strip()
        if line.startswith('File "') and not line.startswith('File "<'):
            where = line
    text = type(e).__name__
    detail = str(e)
    if detail:
        text += ": " + detail
    if where:
        q = where.find('"', 6)
        rest = where[q + 1:].split(",")
        text += " (" + where[6:q] + (", " + rest[1].strip() if len(rest) > 1 else "") + ")"
    return text

def _source_module(name):
    m = _project.get(name)
    if m is not None:
        return m
    path = name.replace(".", "/")
    source = _sources.get(path + ".py")
    package = False
    if source is None:
        source = _sources.get(path + "/__init__.py")
        package = source is not None
    if source is None:
        # A folder of modules is a package without an __init__.py.
        for key in _sources:
            if key.startswith(path + "/"):
                source = ""
                package = True
                break
    if source is None:
        return None
    m = _Module()
    g = {"__name__": name}
    if name == "playfield":
        g["_call"] = _api_call
    if package:
        g["__path__"] = path
    _project[name] = m
    try:
        exec(compile(source, path + ("/__init__.py" if package else ".py"), "exec"), g)
    except BaseException:
        del _project[name]
        raise
    for k in g:
        setattr(m, k, g[k])
    return m

def _absolute(name, g, level):
    if level == 0:
        return name
    base = g.get("__name__", "") if g else ""
    if type(base) is not str:
        base = ""
    if not (g and "__path__" in g):
        base = base.rpartition(".")[0]
    for _ in range(level - 1):
        base = base.rpartition(".")[0]
    return base + "." + name if name else base

def _hook(name, g, l, fromlist, level):
    # Only plain values go on: a str subclass could answer split() with an
    # allowed name while the interpreter's import reads its real text.
    if type(name) is not str or type(level) is not int:
        raise TypeError("__import__ takes a str name and an int level")
    if fromlist is not None:
        fromlist = tuple(fromlist)
        for attr in fromlist:
            if type(attr) is not str:
                raise TypeError("__import__ takes names of str")
    if _inner[0]:
        # A pure module's own imports (frozen modules import each other, relatively too).
        return _import(name, g, l, fromlist, level)
    full = _absolute(name, g if type(g) is dict else None, level)
    top = full.split(".")[0]
    if top in _PURE and level == 0:
        _inner[0] = 1
        try:
            return _import(name, None, None, fromlist, 0)
        finally:
            _inner[0] = 0
    parts = full.split(".")
    mods = []
    for i in range(len(parts)):
        m = _source_module(".".join(parts[:i + 1]))
        if m is None:
            if i == len(parts) - 1 or not mods:
                raise ImportError("module not found: " + full + " (scripts import from the project's scripts folder and " + ", ".join(sorted(_PURE)) + ")")
            break
        if mods:
            setattr(mods[-1], parts[i], m)
        mods.append(m)
    if fromlist:
        leaf = mods[-1]
        for attr in fromlist:
            if attr != "*" and not hasattr(leaf, attr):
                sub = _source_module(full + "." + attr)
                if sub is not None:
                    setattr(leaf, attr, sub)
        return leaf
    return mods[0] if level == 0 else mods[-1]

# The game's API (the module playfield, from the host when the game has
# kinds): the host checks every rule and answers {"v": value} or
# {"e": [error, message]}, raised as Python's nearest error.
_ERRORS = {"TypeError": TypeError, "RangeError": ValueError, "ReferenceError": LookupError}

def _call(op, args):
    r = _loads(_playfield_host(op, _dumps(args)))
    e = r.get("e")
    if e is not None:
        raise _ERRORS.get(e[0], RuntimeError)(e[1])
    return r["v"]

_LIMIT = 9007199254740991
_INF = float("inf")

def _what(v, depth, ancestors):
    # None: JSON data; 0: a list or dict to look into; else what is wrong with it.
    t = type(v)
    if v is None or t is bool or t is str:
        return None
    if t is int:
        return None if -_LIMIT <= v <= _LIMIT else " is an integer beyond 2**53"
    if t is float:
        return None if v == v and v != _INF and v != -_INF else " is " + repr(v)
    if t is not list and t is not dict:
        return " is a " + t.__name__
    for a in ancestors:
        if a is v:
            return " is a cycle"
    if depth >= 64:
        return " is nested deeper than 64 levels"
    return 0

def _plain(key):
    # A key's text without running the script's code (no __repr__ of its own).
    t = type(key)
    return repr(key)[:40] if key is None or t is int or t is float or t is bool else "a " + t.__name__

def _path(keys, at, levels):
    p = ""
    for j in range(levels):
        p += "[" + (repr(keys[j][at[j] - 1])[:40] if keys[j] is not None else str(at[j] - 1)) + "]"
    return p

def _check(root):
    # Depth first and without recursion (a Python call per level costs more
    # fuel than the whole walk): the containers on the path, their keys
    # (None for a list) and the next index in each.
    why = _what(root, 0, ())
    if why != 0:
        return why
    path = [root]
    keys = [list(root) if type(root) is dict else None]
    at = [0]
    while path:
        c = path[-1]
        k = keys[-1]
        i = at[-1]
        if i >= (len(k) if k is not None else len(c)):
            path.pop()
            keys.pop()
            at.pop()
            continue
        at[-1] = i + 1
        if k is None:
            v = c[i]
        else:
            if type(k[i]) is not str:
                return _path(keys, at, len(path) - 1) + " has a key that is not a str: " + _plain(k[i])
            v = c[k[i]]
        why = _what(v, len(path), path)
        if why is None:
            continue
        if why != 0:
            return _path(keys, at, len(path)) + why
        path.append(v)
        keys.append(list(v) if type(v) is dict else None)
        at.append(0)
    return None

_self = None
_defs = {}
_dump = None
_now = 0
_on_tick = None
_timers = []
_seq = [0]
_ids = [0]

def _fault(e):
    return "\x00" + _describe(e)

# Async handlers: a handler (or timer callback) defined with async def runs
# to its first await at once; await wait(ms) resumes it on the simulated
# clock, through a timer. An error after an await is a fault of the handler
# "(after await)", as in JavaScript.
_GEN = type((lambda: (yield))())
_late = [None]

def _started(label, r):
    if type(r) is _GEN:
        _advance(label, r, True)

def _advance(label, co, first):
    try:
        w = co.send(None)
    except StopIteration:
        return
    except BaseException:
        if not first:
            _late[0] = label
        raise
    if type(w) is not _Wait:
        _late[0] = None if first else label
        raise TypeError("a script awaits only wait(ms)")
    _timer(_advance, w.ms, (label, co, False), False)

# While self.state is written, the C stack limit is lowered (repr recurses
# in C: a cycle would otherwise recurse ~150 kB deep, most of a tick's fuel,
# before it stops; 4 kB still writes 130 levels of nesting) and the Python
# stack is closed (a __repr__ written in Python raises instead of writing
# text that would pass for data).
_stack = [None, b"", b""]
_CAPTURE_STACK = 4096

def _stack_at(address, limit):
    # mp_state_thread_t from stack_limit on: stack_limit, pystack_start, pystack_end.
    # Closed: a 4 kB limit, and pystack_end at pystack_start (no Python frame fits).
    # One slice assignment each way: this runs on every tick.
    w = uctypes.bytearray_at(address, 12)
    _stack[0] = w
    _stack[1] = bytes(w)
    _stack[2] = _CAPTURE_STACK.to_bytes(4, "little") + bytes(w[4:8]) + bytes(w[4:8])

# The state is written as bytes, not a str: making a str looks it up among
# the interned names (a scan of every name the prelude and the script
# define, on every tick), making bytes does not. print writes a list's items
# as repr does (a str in the box gets its quotes); bytes end with a NUL.
_BytesIO = io.BytesIO
_print = print
_address = uctypes.addressof
_box = [None]

def _settle():
    global _dump
    w = _stack[0]
    w[0:12] = _stack[2]
    try:
        # Written here, not in a function: no Python frame fits while the stack is closed.
        b = _BytesIO()
        _box[0] = _self.state
        _print(_box, file=b, end="")
        s = b.getvalue()
    except BaseException:
        w[0:12] = _stack[1]
        return "\x00" + _explain()
    w[0:12] = _stack[1]
    if s == _dump:
        return None
    _dump = s
    return _address(s)

def _explain():
    # The state as the handler's answer read it (on the script's fuel):
    # reading self.state again could run a property of the script's.
    p = _check(_box[0])
    return "self.state is not JSON data: self.state" + (p or " could not be written")

def _restore(text):
    global _dump
    _self.state = _loads(text)
    # The next capture tells the host this state again, which it already holds.
    _dump = None

def _attach(name, filename, source, state=None):
    global _self, _defs, _dump
    _self = Script(name)
    g = {"__name__": "__script__"}
    try:
        exec(compile(source, filename, "exec"), g)
    except BaseException as e:
        return "\x00" + _describe(e)
    _defs = g
    if state is not None:
        _restore(state)
        return None
    _dump = None
    init = g.get("init")
    if init is not None:
        try:
            first = init()
        except BaseException as e:
            return "\x01" + _describe(e)
        if first is not None:
            _self.state = first
    return _settle()

def _on_load(reloaded):
    f = _defs.get("on_load")
    if f is not None:
        try:
            _started("on_load", f(_self, bool(reloaded)))
        except BaseException as e:
            return _fault(e)
    return _settle()

def _has_tick():
    global _on_tick
    _on_tick = _defs.get("on_tick")
    return _on_tick is not None

def _quick(now, dt):
    global _now
    if _timers and _timers[0][0] <= now:
        return 1
    _now = now
    if _on_tick is None:
        return None
    try:
        r = _on_tick(_self, dt)
        if r is not None:
            _started("on_tick", r)
    except BaseException as e:
        return _fault(e)
    return _settle()

def _tick(now, dt):
    global _now
    _now = now
    try:
        r = _on_tick(_self, dt)
        if r is not None:
            _started("on_tick", r)
    except BaseException as e:
        return _fault(e)
    return _settle()

def _set_now(now):
    global _now
    _now = now

def _next_due():
    return _timers[0][0] if _timers else -1

def _insert(timer):
    i = len(_timers)
    while i > 0 and (_timers[i - 1][0], _timers[i - 1][1]) > (timer[0], timer[1]):
        i -= 1
    _timers.insert(i, timer)

def _fire_next(upto):
    global _now
    if not _timers or _timers[0][0] > upto:
        return None
    t = _timers.pop(0)
    _now = t[0]
    if t[4] > 0:
        _seq[0] += 1
        _insert([t[0] + t[4], _seq[0], t[2], t[3], t[4], t[5]])
    _late[0] = None
    try:
        r = t[2](*t[3])
        if r is not None:
            _started("timer", r)
    except BaseException as e:
        return _fault(e) if _late[0] is None else "\x00\x02" + _late[0] + " (after await)\x02" + _describe(e)
    return _settle()

def _event(now, name, data):
    global _now
    _now = now
    f = _defs.get("on_" + name)
    args = (_self, _loads(data))
    if f is None:
        f = _defs.get("on_event")
        args = (_self, name, _loads(data))
    if f is None:
        return None
    try:
        _started("event " + name, f(*args))
    except BaseException as e:
        return _fault(e)
    return _settle()

def _compile(path, source):
    try:
        compile(source, path, "exec")
    except BaseException as e:
        return _describe(e)
    return None

def _provide(path, source):
    _sources[path] = source

def _timer(fn, ms, args, every):
    if not callable(fn):
        raise TypeError("timer callback must be callable")
    ms = max(0, int(ms))
    _seq[0] += 1
    _ids[0] += 1
    _insert([_now + ms, _seq[0], fn, args, max(1, ms) if every else 0, _ids[0]])
    return _ids[0]

def _clear(timer_id):
    for i in range(len(_timers)):
        if _timers[i][5] == timer_id:
            _timers.pop(i)
            return

# What a script can reach of the prelude (builtins, self, wait(ms), the
# import hook, modules) is defined in a dict of its own that holds nothing
# else: a function's __globals__ is the dict it was defined in, and this
# module's would reach the interpreter's own import, sys and uctypes. The
# few functions that need the prelude reach it through closures, whose
# cells MicroPython does not show (no __closure__, no cell_contents).
_public = {"__name__": "_runtime"}
exec("""
class Script:
    # The script instance: handlers get it as self.
    def __init__(self, name):
        self.name = name
        self.state = {}

class Module:
    pass

class Wait:
    def __init__(self, ms):
        self.ms = ms

    def __await__(self):
        yield self

    __iter__ = __await__

def wait(ms=0):
    return Wait(max(0, int(ms)))

def bind(timer, clear, hook, call):
    def set_timeout(fn, ms=0, *args):
        return timer(fn, ms, args, False)

    def set_interval(fn, ms=0, *args):
        return timer(fn, ms, args, True)

    def clear_timeout(timer_id):
        clear(timer_id)

    def __import__(name, globals=None, locals=None, fromlist=None, level=0):
        return hook(name, globals, locals, fromlist, level)

    def _call(op, args):
        return call(op, args)

    return set_timeout, set_interval, clear_timeout, __import__, _call
""", _public)
Script = _public["Script"]
_Module = _public["Module"]
_Wait = _public["Wait"]
_set_timeout, _set_interval, _clear_timeout, _import_hook, _api_call = _public.pop("bind")(_timer, _clear, _hook, _call)
builtins.set_timeout = _set_timeout
builtins.set_interval = _set_interval
builtins.clear_timeout = _clear_timeout
builtins.clear_interval = _clear_timeout
builtins.wait = _public["wait"]
`;

/** Run after the host has looked up the prelude's functions (through an import of `__main__`): from then on, imports go through the allow-list. */
export const PYTHON_SEAL = "builtins.__import__ = _import_hook";
