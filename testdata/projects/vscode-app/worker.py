import time
print("vscode worker started", flush=True)
while True:
    time.sleep(0.2)
