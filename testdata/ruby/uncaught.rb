# Fixture for exception stops: a rescued ArgumentError, then an uncaught
# RuntimeError.
$stdout.sync = true
def check(v)
  raise ArgumentError, "value #{v} is too large" if v > 2 # ARG
  v
end
begin
  check(5)
rescue ArgumentError => e
  puts "rescued #{e.message}"
end
raise "boom at the end" # BOOM
