# Fixture for exception stops: a rescued ArgumentError, then a rescued
# RuntimeError.
$stdout.sync = true

def check(v)
  raise ArgumentError, "too large #{v}" if v > 2 # ARG
  v
end

def risky(n)
  raise "boom #{n}" if n == 2 # BOOM
  n
end

begin
  check(5)
rescue ArgumentError => e
  puts "rescued #{e.message}"
end

begin
  3.times { |i| puts "ok #{risky(i)}" }
rescue => e
  puts "rescued #{e.message}"
end
