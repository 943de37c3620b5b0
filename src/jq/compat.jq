# jq where jaq differs from it and a jq user would be surprised, and
# jq's filters that jaq lacks. Read after jaq's standard
# library: a definition here shadows jaq's of the same name and arity,
# for the user's program only (jaq's own definitions keep jaq's).
# docs/filter.md lists what is still different, and why.

# jaq's originals that the definitions below wrap (a definition may call
# itself, so each is named before it is shadowed).
def _jaq_ltrimstr($s): ltrimstr($s);
def _jaq_rtrimstr($s): rtrimstr($s);
def _jaq_trim: trim;
def _jaq_ltrim: ltrim;
def _jaq_rtrim: rtrim;
def _jaq_implode: implode;
def _jaq_limit($n; f): limit($n; f);
def _jaq_skip($n; f): skip($n; f);
def _jaq_flatten($d): flatten($d);
def _jaq_utf8bytelength: utf8bytelength;
def _jaq_getpath($p): getpath($p);
def _jaq_has($k): has($k);
def _jaq_bsearch($x): bsearch($x);
def _jaq_strftime($f): strftime($f);
def _jaq_strflocaltime($f): strflocaltime($f);
def _jaq_mktime: mktime;

# Paths: missing containers are created, several paths deleted at once.
def setpath($p; $v): _aoi_setpath($p; $v);
def delpaths($ps): _aoi_delpaths($ps);
def getpath($p):
  if ($p | type) == "array" and ($p | length) > 10000 then error("Path too deep")
  else _jaq_getpath($p) end;
def del(f): delpaths([path(f)]);
def pick(f): . as $v | reduce path(f) as $p (null; setpath($p; $v | getpath($p)));
def leaf_paths: paths(scalars);

# Streaming form: [path, leaf] events, and [path] closing a container.
def tostream:
  def events($p):
    if (type == "array" or type == "object") and length > 0 then
      [if type == "array" then range(length) else keys_unsorted[] end] as $ks
      | ($ks[] as $k | .[$k] | events($p + [$k])), [$p + [$ks[-1]]]
    else [$p, .] end;
  events([]);
def fromstream(events):
  foreach events as $e ({v: null, done: false};
    if .done then {v: null, done: false} end
    | if ($e | length) == 2 then
        if ($e[0] | length) == 0 then {v: $e[1], done: true}
        else .v = (.v | setpath($e[0]; $e[1])) end
      else .done = (($e[0] | length) == 1) end;
    if .done then .v else empty end);
def truncate_stream(events):
  . as $depth | null | events | select((.[0] | length) > $depth) | .[0] = .[0][$depth:];

# Generators: a negative count is an error, as in jq; nth counts each n.
def limit($n; f):
  if $n < 0 then error("limit doesn't support negative count") else _jaq_limit($n; f) end;
def skip($n; f):
  if $n < 0 then error("skip doesn't support negative count") else _jaq_skip($n; f) end;
def nth($n; f):
  if $n < 0 then error("nth doesn't support negative indices") else first(_jaq_skip($n; f)) end;

# SQL-style operators.
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(rows; key): reduce rows as $r ({}; .[$r | key | tostring] = $r);
def INDEX(key): INDEX(.[]; key);
def JOIN($index; key): [.[] | [., $index[key]]];
def JOIN($index; rows; key): rows | [., $index[key]];
def JOIN($index; rows; key; out): rows | [., $index[key]] | out;

# Strings, with jq's messages.
def ltrimstr($s):
  if type == "string" and ($s | type) == "string" then _jaq_ltrimstr($s)
  else error("startswith() requires string inputs") end;
def rtrimstr($s):
  if type == "string" and ($s | type) == "string" then _jaq_rtrimstr($s)
  else error("endswith() requires string inputs") end;
def trimstr($s): ltrimstr($s) | rtrimstr($s);
def trim: if type == "string" then _jaq_trim else error("trim input must be a string") end;
def ltrim: if type == "string" then _jaq_ltrim else error("trim input must be a string") end;
def rtrim: if type == "string" then _jaq_rtrim else error("trim input must be a string") end;
def _strindices($s):
  if type != "string" then error("\(type) (\(tojson)) cannot be searched, as it is not a string")
  elif ($s | type) != "string" then error("\($s | type) (\($s | tojson)) is not a string")
  else indices($s) end;
def utf8bytelength:
  if type == "string" then _jaq_utf8bytelength
  else error("\(type) (\(tojson)) only strings have UTF-8 byte length") end;
def implode:
  if type != "array" then error("implode input must be an array")
  else map(
      if type != "number" or isnan then
        error("\(type) (\(tojson)) can't be imploded, unicode codepoint needs to be numeric")
      elif . < 0 or . >= 1114112 or (. >= 55296 and . < 57344) then 65533
      else floor end)
    | _jaq_implode end;
def ascii: [.] | implode;
def join($s):
  reduce .[] as $x (null;
    (if . == null then "" else . + $s end) as $acc
    | $x | if . == null then $acc
      elif type == "string" then $acc + .
      elif type == "number" or type == "boolean" then $acc + tojson
      else error("string (\($acc | tojson)) and \(type) (\(tojson)) cannot be added") end)
  // "";
def toboolean:
  if type == "boolean" then . elif . == "true" then true elif . == "false" then false
  else error("\(type) (\(tojson)) cannot be parsed as a boolean") end;
def flatten($d):
  if $d < 0 then error("flatten depth must not be negative") else _jaq_flatten($d) end;
def _jaq_tonumber: tonumber;
def tonumber:
  if type == "number" then .
  elif type == "string" and test("^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$") then
    (if test("^[+-]?[.]") then sub("[.]"; "0.") end) | _jaq_tonumber | . + 0
  else error("\(type) (\(tojson)) cannot be parsed as a number") end;
def from_entries:
  reduce .[] as $e ({};
    . + {($e | if type == "object" then (.key // .k // .name // .Name // .K // .Key) else . end
          | if type == "string" then . elif type == "null" then "null" else tojson end):
         ($e | if has("value") then .value elif has("v") then .v else .Value end)});
def has($k): if ($k | type) == "number" and ($k | isnan) then false else _jaq_has($k) end;
def bsearch($x):
  if type == "array" then _jaq_bsearch($x)
  else error("\(type) (\(tojson)) cannot be searched from") end;

# Time: a broken-down time may be short (jq fills it with zeros).
def _aoi_tm($name):
  if type == "number" then .
  elif type == "array" and all(.[]; type == "number") then . + [range(8 - length) | 0]
  else error("\($name) requires parsed datetime inputs") end;
def _aoi_format($name; $f):
  if ($f | type) == "string" then $f else error("\($name) requires a string format") end;
def strftime($f): _aoi_format("strftime/1"; $f) as $f | _aoi_tm("strftime/1") | _jaq_strftime($f);
def strflocaltime($f):
  _aoi_format("strflocaltime/1"; $f) as $f | _aoi_tm("strflocaltime/1") | _jaq_strflocaltime($f);
def mktime: _aoi_tm("mktime") | _jaq_mktime;

def toarray: if type == "array" then . else [.] end;
def splits($re): splits($re; null);

# What jq reports about itself and its input.
def have_decnum: false;
def have_literal_numbers: true;
def input_filename: _aoi_input_filename;
