# Fixture for exception stops: raises and rescues a RuntimeError.
$stdout.sync = true

def risky(n)
  raise "boom #{n}" if n == 2
  n
end

begin
  3.times { |i| puts "ok #{risky(i)}" }
rescue => e
  puts "rescued #{e.message}"
end
