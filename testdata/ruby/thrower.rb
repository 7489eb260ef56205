# Raises and rescues "bad n <n>" on every even n until killed: a target
# for attaching with exception breakpoints.
$stdout.sync = true
puts "ready"
n = 0
loop do
  n += 1
  begin
    raise ArgumentError, "bad n #{n}" if n.even? # THROW
  rescue ArgumentError => e
    puts "tick #{e.message}"
  end
  sleep 0.05
end
