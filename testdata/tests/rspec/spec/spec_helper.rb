$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
