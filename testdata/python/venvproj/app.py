"""Imports a package installed only in the project's .venv."""
import onlyinvenv


def main():
    value = onlyinvenv.answer()  # BREAK
    print("answer", value)


if __name__ == "__main__":
    main()
