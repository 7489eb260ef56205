# Fixture for the ruby adapter: a loop with locals, a method call, stdout.
# With an argument "forever" it prints "ready", then ticks until killed
# (attach tests).
$stdout.sync = true

def square(x)
  result = x * x
  result
end

forever = ARGV[0] == "forever"
label = "sum"
total = 0
i = 0
puts "ready" if forever
while forever || i < 5
  total += square(i) # BREAK: loop body
  puts "#{forever ? "tick " : ""}#{label} i=#{i} total=#{total}"
  sleep 0.05 if forever
  i += 1
end
puts "done total=#{total}"
